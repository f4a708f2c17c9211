// Where the feeds service meets other services: the events its copies are fed from, the requests it
// answers for the Microsub adapter and the reader, and non-durable listeners that keep every
// replica's in-memory index current (a durable group delivers each event to one replica only).
import { federation, feeds, identity, publishing, webmention } from '@murmur/contracts';
import { type Subscription } from '@murmur/bus';
import { formatOffsetTime, notFound } from '@murmur/core';
import {
  applyMentionDeleted,
  applyMentionVerified,
  applyPostEvent,
  applySiteEvent,
  indexPostEvent,
} from './domain/copies.js';
import type { FeedsContext } from './domain/context.js';
import { follow, followeesWithChannels, resolveTarget, unfollow, unfollowChannel } from './domain/follows.js';
import { extractArticleAt } from './domain/pages.js';
import { applyRemotePostEvent, indexRemotePostEvent } from './domain/remote.js';
import { revisionOf } from './domain/revisions.js';
import { timelinePage, timelinePositions } from './domain/timelines.js';
import {
  findUserById,
  NO_SUCH_USER,
  profileOf,
  profilesOf,
  rememberUser,
  type Profile,
} from './domain/users.js';

export const GROUPS = {
  postPublished: 'feeds-post-published',
  postUpdated: 'feeds-post-updated',
  postDeleted: 'feeds-post-deleted',
  userCreated: 'feeds-user-created',
  userUpdated: 'feeds-user-updated',
  siteCreated: 'feeds-site-created',
  siteUpdated: 'feeds-site-updated',
  mentionVerified: 'feeds-mention-verified',
  mentionDeleted: 'feeds-mention-deleted',
  remotePostReceived: 'feeds-remote-post-received',
  remotePostUpdated: 'feeds-remote-post-updated',
  remotePostDeleted: 'feeds-remote-post-deleted',
} as const;

function card(p: Profile): feeds.Card {
  return { userId: p.userId, username: p.username, name: p.name, url: p.url, photo: p.avatar };
}

async function userOr404(ctx: FeedsContext, id: number) {
  const user = await findUserById(ctx, id);
  if (!user) throw notFound(NO_SUCH_USER);
  return user;
}

export async function wireBus(ctx: FeedsContext): Promise<Subscription[]> {
  const { bus } = ctx;
  return Promise.all([
    // copies
    bus.subscribe(publishing.postPublished, { durable: GROUPS.postPublished }, (e) =>
      applyPostEvent(ctx, 'published', e),
    ),
    bus.subscribe(publishing.postUpdated, { durable: GROUPS.postUpdated }, (e) =>
      applyPostEvent(ctx, 'updated', e),
    ),
    bus.subscribe(publishing.postDeleted, { durable: GROUPS.postDeleted }, (e) =>
      applyPostEvent(ctx, 'deleted', e),
    ),
    bus.subscribe(identity.userCreated, { durable: GROUPS.userCreated }, (e) =>
      rememberUser(ctx, e.data.user, revisionOf(e.occurredAt, 'created')),
    ),
    bus.subscribe(identity.userUpdated, { durable: GROUPS.userUpdated }, (e) =>
      rememberUser(ctx, e.data.user, revisionOf(e.occurredAt, 'updated')),
    ),
    bus.subscribe(publishing.siteCreated, { durable: GROUPS.siteCreated }, (e) =>
      applySiteEvent(ctx, 'created', e),
    ),
    bus.subscribe(publishing.siteUpdated, { durable: GROUPS.siteUpdated }, (e) =>
      applySiteEvent(ctx, 'updated', e),
    ),
    bus.subscribe(webmention.mentionVerified, { durable: GROUPS.mentionVerified }, (e) =>
      applyMentionVerified(ctx, e),
    ),
    bus.subscribe(webmention.mentionDeleted, { durable: GROUPS.mentionDeleted }, (e) =>
      applyMentionDeleted(ctx, e),
    ),

    bus.subscribe(federation.postReceived, { durable: GROUPS.remotePostReceived }, (e) =>
      applyRemotePostEvent(ctx, 'received', e),
    ),
    bus.subscribe(federation.postUpdated, { durable: GROUPS.remotePostUpdated }, (e) =>
      applyRemotePostEvent(ctx, 'updated', e),
    ),
    bus.subscribe(federation.postDeleted, { durable: GROUPS.remotePostDeleted }, (e) =>
      applyRemotePostEvent(ctx, 'deleted', e),
    ),

    // every replica's read model
    bus.listen(publishing.postPublished, async (e) => indexPostEvent(ctx, 'published', e)),
    bus.listen(publishing.postUpdated, async (e) => indexPostEvent(ctx, 'updated', e)),
    bus.listen(publishing.postDeleted, async (e) => indexPostEvent(ctx, 'deleted', e)),
    bus.listen(federation.postReceived, async (e) => indexRemotePostEvent(ctx, 'received', e)),
    bus.listen(federation.postUpdated, async (e) => indexRemotePostEvent(ctx, 'updated', e)),
    bus.listen(federation.postDeleted, async (e) => indexRemotePostEvent(ctx, 'deleted', e)),
    bus.listen(identity.userUpdated, async (e) => bumpProfiles(ctx, revisionOf(e.occurredAt, 'updated'))),
    bus.listen(publishing.siteUpdated, async (e) => bumpProfiles(ctx, revisionOf(e.occurredAt, 'updated'))),

    // requests
    bus.handle(feeds.timelineGet, async (query) => {
      const page = await timelinePage(ctx, query, await userOr404(ctx, query.userId));
      return {
        items: page.posts.map((p) => {
          const author = page.profiles.get(p.userId);
          return {
            id: String(p._id),
            postId: p._id,
            url: p.url,
            title: p.title,
            contentHtml: p.contentHtml,
            contentText: p.contentText,
            publishedAt: formatOffsetTime(p.publishedAt),
            photos: p.photos,
            author: author ? card(author) : { userId: p.userId, username: '', name: '', url: '', photo: '' },
            ...(p.repostOf ? { repostOf: p.repostOf } : {}),
          };
        }),
        ...(page.before ? { before: page.before } : {}),
        ...(page.after ? { after: page.after } : {}),
      };
    }),
    bus.handle(feeds.timelinePositions, async (query) => {
      const { heads, before } = await timelinePositions(ctx, query, await userOr404(ctx, query.userId));
      return {
        items: heads.map((h) => ({
          id: String(h.id),
          publishedAt: formatOffsetTime(new Date(h.publishedAtMs)),
        })),
        ...(before ? { before } : {}),
      };
    }),
    bus.handle(feeds.followCreate, async (query, { headers }) => {
      const target = await resolveTarget(ctx, query);
      await follow(ctx, query.userId, target, headers, query.channel);
      return { following: card(await profileOf(ctx, target)) };
    }),
    bus.handle(feeds.followDelete, async (query) => {
      const target = await resolveTarget(ctx, query);
      await unfollow(ctx, query.userId, target);
      return { unfollowed: card(await profileOf(ctx, target)) };
    }),
    bus.handle(feeds.followingList, async (query) => {
      const followees = await followeesWithChannels(ctx, await userOr404(ctx, query.userId));
      const channelOf = new Map(followees.map((f) => [f.id, f.channel]));
      const profiles = await profilesOf(
        ctx,
        followees.map((f) => f.id),
      );
      return {
        items: [...profiles.values()]
          .sort((a, b) => a.username.localeCompare(b.username))
          .map((p) => {
            const channel = channelOf.get(p.userId);
            return channel === undefined ? card(p) : { ...card(p), channel };
          }),
      };
    }),
    bus.handle(feeds.channelUnfollow, async (query) => ({
      unfollowed: await unfollowChannel(ctx, (await userOr404(ctx, query.userId))._id, query.channel),
    })),
    bus.handle(feeds.articleExtract, (query) => extractArticleAt(ctx, query.url)),
  ]);
}

function bumpProfiles(ctx: FeedsContext, rev: number): void {
  ctx.profiles.rev = Math.max(ctx.profiles.rev, rev);
}
