// What other servers read about us: WebFinger, NodeInfo, actors, their collections and notes
// (docs/api/federation.md, "Discovery" and "Documents"). With federation turned off, none of it exists.
import { badRequest, notFound } from '@murmur/core';
import type { FederationContext } from './context.js';
import {
  actorJson,
  collectionJson,
  collectionPageJson,
  createJson,
  instanceActorJson,
  nodeinfoJson,
  nodeinfoLinksJson,
  noteJson,
  webfingerJson,
} from './ap-json.js';
import { INSTANCE_KEY_OWNER } from './keys.js';
import type { ApDocument, Jrd, Nodeinfo, NodeinfoLinks } from '../shapes.js';
import { findUserById, userByUsernameOr404, findUserByUsername } from './users.js';

export const OUTBOX_PAGE_SIZE = 20;
const TURNED_OFF = 'Federation is turned off on this server.';

export function requireFederation(ctx: FederationContext): void {
  if (!ctx.config.FEDERATION_ENABLED) throw notFound(TURNED_OFF);
}

/** `acct:name@host` (or a bare `name@host`), an actor URL or a profile URL of ours → the user's JRD. */
export async function webfinger(ctx: FederationContext, resource: string | undefined): Promise<Jrd> {
  requireFederation(ctx);
  if (!resource) throw badRequest('resource: is required', 'resource');
  const { urls } = ctx;
  let username: string | null = null;
  const acct = /^(?:acct:)?@?([^@\s/]+)@([^@\s/]+)$/i.exec(resource.trim());
  if (acct) {
    if (acct[2]!.toLowerCase() !== urls.host.toLowerCase()) throw notFound('No such account on this server.');
    username = acct[1]!;
  } else if (resource.startsWith(`${urls.base}/`)) {
    username =
      urls.usernameOfActor(resource) ??
      /^([^/?#]+)\/?$/.exec(resource.slice(urls.base.length + 1))?.[1] ??
      null;
    if (username !== null) username = decodeURIComponent(username);
  } else if (!/^[a-z][a-z0-9+.-]*:/i.test(resource)) {
    throw badRequest('resource: must be acct:name@host or a URL', 'resource');
  }
  const user = username === null ? null : await findUserByUsername(ctx, username);
  if (!user) throw notFound('No such account on this server.');
  return webfingerJson(urls, user);
}

export async function actorDocument(ctx: FederationContext, username: string): Promise<ApDocument> {
  requireFederation(ctx);
  const user = await userByUsernameOr404(ctx, username);
  const key = await ctx.keys.signingKey(user._id);
  return actorJson(ctx.urls, user, key.publicKeyPem);
}

export async function instanceActorDocument(ctx: FederationContext): Promise<ApDocument> {
  requireFederation(ctx);
  const key = await ctx.keys.signingKey(INSTANCE_KEY_OWNER);
  return instanceActorJson(ctx.urls, key.publicKeyPem);
}

/** Where a browser asking for an actor goes: the user's profile page. */
export async function profilePageOf(ctx: FederationContext, username: string): Promise<string> {
  requireFederation(ctx);
  const user = await userByUsernameOr404(ctx, username);
  return ctx.urls.profile(user.username);
}

async function publicPost(ctx: FederationContext, postId: number) {
  requireFederation(ctx);
  const post = await ctx.store.postById(postId);
  if (!post || !post.visible) throw notFound('No such post.');
  const user = await findUserById(ctx, post.userId);
  if (!user) throw notFound('No such post.');
  return { post, user };
}

export async function noteDocument(ctx: FederationContext, postId: number): Promise<ApDocument> {
  const { post, user } = await publicPost(ctx, postId);
  return { '@context': 'https://www.w3.org/ns/activitystreams', ...noteJson(ctx.urls, post, user) };
}

/** Where a browser asking for a note goes: the post's own page. */
export async function permalinkOf(ctx: FederationContext, postId: number): Promise<string> {
  return (await publicPost(ctx, postId)).post.url;
}

/** The outbox: its count and first page, or page `page` (1-based) of Create(Note), newest first. */
export async function outboxDocument(
  ctx: FederationContext,
  username: string,
  page: number | undefined,
): Promise<ApDocument> {
  requireFederation(ctx);
  const user = await userByUsernameOr404(ctx, username);
  const id = ctx.urls.outbox(user.username);
  const total = await ctx.store.countPublicPosts(user._id);
  if (page === undefined) return collectionJson(id, total, `${id}?page=1`);
  const posts = await ctx.store.publicPostsOf(user._id, (page - 1) * OUTBOX_PAGE_SIZE, OUTBOX_PAGE_SIZE);
  const items = posts.map((post) => {
    const { ['@context']: _context, ...create } = createJson(
      ctx.urls,
      noteJson(ctx.urls, post, user),
      user,
      post.publishedAt,
    );
    return create;
  });
  const next = page * OUTBOX_PAGE_SIZE < total ? `${id}?page=${page + 1}` : undefined;
  const prev = page > 1 ? `${id}?page=${page - 1}` : undefined;
  return collectionPageJson(`${id}?page=${page}`, id, items, next, prev);
}

/** Followers and following show their counts only (as Mastodon does for hidden networks). */
export async function followersDocument(ctx: FederationContext, username: string): Promise<ApDocument> {
  requireFederation(ctx);
  const user = await userByUsernameOr404(ctx, username);
  return collectionJson(ctx.urls.followers(user.username), await ctx.store.countFollowers(user._id));
}

export async function followingDocument(ctx: FederationContext, username: string): Promise<ApDocument> {
  requireFederation(ctx);
  const user = await userByUsernameOr404(ctx, username);
  return collectionJson(ctx.urls.following(user.username), await ctx.store.countFollowing(user._id));
}

export function nodeinfoLinks(ctx: FederationContext): NodeinfoLinks {
  requireFederation(ctx);
  return nodeinfoLinksJson(ctx.urls);
}

export async function nodeinfo(ctx: FederationContext): Promise<Nodeinfo> {
  requireFederation(ctx);
  const [users, localPosts] = await Promise.all([ctx.store.countUsers(), ctx.store.countPublicPosts()]);
  return nodeinfoJson({ users, localPosts }, true);
}
