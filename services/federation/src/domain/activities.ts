// What each verified inbound activity does (docs/api/federation.md, "Inbox"): Follow (answered with
// Accept), Undo, Accept and Reject of our follows, Create and Update of notes (a post for local
// followers' timelines, a mention, a reply to a local post), Delete (of a note or of the actor), Like
// and Announce of local posts. Anything else is acknowledged and ignored.
import { createHash } from 'node:crypto';
import { notFound } from '@murmur/core';
import { sanitizeHtmlFragment } from '@murmur/fetch';
import type { ActorDoc, InteractionDoc, PostDoc, RemotePostDoc } from '../store/index.js';
import { AS_CONTEXT, type Json } from './ap-json.js';
import type { FederationContext } from './context.js';
import { recordFollower, recordInteraction, recordRemotePost } from './events.js';
import { firstUrl, idOf, isPublic, isRecord, textOf, typeOf } from './json.js';
import { sendActivity } from './outgoing.js';
import { actorFor, fetchActor, fetchDocument, RemoteError } from './remote.js';
import { findUserByUsername } from './users.js';

/** Longest content kept of a remote note (characters of sanitised HTML). */
const MAX_CONTENT = 100_000;
const NOTE_TYPES = new Set(['Note', 'Article', 'Page', 'Question']);

export async function handleActivity(ctx: FederationContext, activity: Json, actor: ActorDoc): Promise<void> {
  switch (typeOf(activity)) {
    case 'Follow':
      return follow(ctx, activity, actor);
    case 'Undo':
      return undo(ctx, activity, actor);
    case 'Accept':
      return answerToOurFollow(ctx, activity, actor, 'accepted');
    case 'Reject':
      return answerToOurFollow(ctx, activity, actor, 'rejected');
    case 'Create':
      return createOrUpdateNote(ctx, activity, actor, 'create');
    case 'Update':
      return update(ctx, activity, actor);
    case 'Delete':
      return remove(ctx, activity, actor);
    case 'Like':
      return interact(ctx, activity, actor, 'like');
    case 'Announce':
      return announce(ctx, activity, actor);
    default:
      return;
  }
}

// ---- follows ------------------------------------------------------------------------------------

async function follow(ctx: FederationContext, activity: Json, actor: ActorDoc): Promise<void> {
  const username = ctx.urls.usernameOfActor(idOf(activity.object) ?? '');
  const user = username === null ? null : await findUserByUsername(ctx, username);
  if (!user) throw notFound('No such account on this server.');
  const now = ctx.clock.now();
  const followId = idOf(activity.id)!;
  if (
    await ctx.store.addFollower({
      _id: `${user._id} ${actor._id}`,
      userId: user._id,
      actor: actor._id,
      followId,
      createdAt: now,
    })
  ) {
    await recordFollower(ctx, 'added', user, actor, now);
  }
  // Accepted at once (manuallyApprovesFollowers: false); a repeated Follow is accepted again.
  const me = ctx.urls.actor(user.username);
  const stamp = createHash('sha256').update(followId).digest('hex').slice(0, 16);
  await sendActivity(
    ctx,
    user._id,
    {
      '@context': AS_CONTEXT,
      id: `${me}#accepts/${stamp}`,
      type: 'Accept',
      actor: me,
      object: { id: followId, type: 'Follow', actor: actor.actorId, object: me },
    },
    [actor],
    { sharedInbox: false },
  );
}

async function unfollowedBy(
  ctx: FederationContext,
  actor: ActorDoc,
  followId: string | undefined,
  object: string | undefined,
): Promise<void> {
  for (const edge of await ctx.store.followedByActor(actor._id)) {
    const user = await ctx.store.userById(edge.userId);
    const sameFollow = followId !== undefined && followId === edge.followId;
    const sameTarget = object !== undefined && user !== null && object === ctx.urls.actor(user.username);
    if (!sameFollow && !sameTarget) continue;
    if ((await ctx.store.removeFollower(edge.userId, actor._id)) && user) {
      await recordFollower(ctx, 'removed', user, actor, ctx.clock.now());
    }
  }
}

async function undo(ctx: FederationContext, activity: Json, actor: ActorDoc): Promise<void> {
  const inner = activity.object;
  const innerId = idOf(inner);
  const innerType = typeOf(inner);
  if (innerType === 'Follow' || innerType === undefined) {
    await unfollowedBy(ctx, actor, innerId, isRecord(inner) ? idOf(inner.object) : undefined);
  }
  if ((innerType === 'Like' || innerType === 'Announce' || innerType === undefined) && innerId) {
    const doc = await ctx.store.interactionByKey(innerId);
    if (doc && doc.actor === actor._id) await hideInteraction(ctx, doc, actor);
    // An undone boost of another server's post leaves the timelines it was in.
    const boost = await ctx.store.remotePostByObjectId(innerId);
    if (boost?.repostOf && boost.actor === actor._id) await hideRemotePost(ctx, boost, actor);
  }
}

async function answerToOurFollow(
  ctx: FederationContext,
  activity: Json,
  actor: ActorDoc,
  answer: 'accepted' | 'rejected',
): Promise<void> {
  const followId = idOf(activity.object);
  if (!followId) return;
  const following = await ctx.store.followingByFollowId(followId);
  if (!following || following.actor !== actor._id) return;
  if (answer === 'accepted') await ctx.store.setFollowingState(following._id, 'accepted');
  else await ctx.store.removeFollowing(following._id);
}

// ---- notes ----------------------------------------------------------------------------------------

/** The local post a URL names: one of our note ids, or a permalink. */
async function localPostAt(ctx: FederationContext, url: string | undefined): Promise<PostDoc | null> {
  if (!url) return null;
  const id = ctx.urls.postIdOfNote(url);
  const post = id !== null ? await ctx.store.postById(id) : await ctx.store.postByUrl(url);
  return post?.visible ? post : null;
}

function textOfHtml(html: string): string {
  return html
    .replace(/<\/?(p|br|div|li|blockquote|h[1-6]|tr)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d{1,7});/g, (_m, n: string) => String.fromCodePoint(Math.min(Number(n), 0x10ffff)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

interface ReadNote {
  objectId: string;
  url: string;
  title: string;
  contentHtml: string;
  contentText: string;
  publishedAt: Date;
  photos: string[];
  mentions: { userId: number; username: string }[];
  inReplyTo: string | null;
}

async function readNote(ctx: FederationContext, note: Json, objectId: string): Promise<ReadNote> {
  const url = firstUrl(note.url) ?? objectId;
  const raw = textOf(note.content) ?? '';
  const contentHtml = sanitizeHtmlFragment(raw.slice(0, MAX_CONTENT), { baseUrl: url });
  const photos: string[] = [];
  for (const item of Array.isArray(note.attachment) ? note.attachment : []) {
    if (!isRecord(item)) continue;
    const media = textOf(item.mediaType) ?? '';
    const href = firstUrl(item.url);
    if (href && (media.startsWith('image/') || typeOf(item) === 'Image')) photos.push(href);
  }
  const mentions: { userId: number; username: string }[] = [];
  for (const tag of Array.isArray(note.tag) ? note.tag : []) {
    if (!isRecord(tag) || typeOf(tag) !== 'Mention') continue;
    const username = ctx.urls.usernameOfActor(idOf(tag.href) ?? '');
    const user = username === null ? null : await findUserByUsername(ctx, username);
    if (user && !mentions.some((m) => m.userId === user._id))
      mentions.push({ userId: user._id, username: user.username });
  }
  const published = Date.parse(textOf(note.published) ?? '');
  return {
    objectId,
    url,
    title: typeOf(note) === 'Note' ? '' : (textOf(note.name) ?? ''),
    contentHtml,
    contentText: textOfHtml(contentHtml),
    publishedAt: Number.isFinite(published) ? new Date(published) : ctx.clock.now(),
    photos: photos.slice(0, 20),
    mentions,
    inReplyTo: idOf(note.inReplyTo) ?? null,
  };
}

async function createOrUpdateNote(
  ctx: FederationContext,
  activity: Json,
  actor: ActorDoc,
  mode: 'create' | 'update',
): Promise<void> {
  const note = activity.object;
  if (!isRecord(note) || !NOTE_TYPES.has(typeOf(note) ?? '')) return;
  const objectId = idOf(note);
  if (!objectId || idOf(note.attributedTo) !== actor.actorId) return;
  // Only public posts: local timelines, mentions and conversations are public pages.
  if (!isPublic(note) && !isPublic(activity)) return;
  const read = await readNote(ctx, note, objectId);
  const replyTo = await localPostAt(ctx, read.inReplyTo ?? undefined);
  const followers = await ctx.store.localFollowersOfActor(actor._id);
  const stored = await ctx.store.remotePostByObjectId(objectId);
  if (stored && stored.actor !== actor._id) return;
  if (followers.length > 0 || read.mentions.length > 0 || stored)
    await keepRemotePost(ctx, read, actor, stored, mode);
  if (replyTo)
    await keepInteraction(
      ctx,
      { key: objectId, type: 'reply', source: read.url, read },
      actor,
      replyTo,
      mode,
    );
}

async function keepRemotePost(
  ctx: FederationContext,
  read: ReadNote,
  actor: ActorDoc,
  stored: RemotePostDoc | null,
  mode: 'create' | 'update',
): Promise<void> {
  if (!stored) {
    // An edit of a post we never had is its arrival (Mastodon sends Update to newly mentioned accounts).
    const { doc, created } = await ctx.store.insertRemotePost({
      ...read,
      actor: actor._id,
      visible: true,
      rev: 1,
    });
    if (created) await recordRemotePost(ctx, 'received', doc, actor);
    return;
  }
  // A second Create of a stored object changes nothing; a deleted one is not brought back by an edit.
  if (mode === 'create' || !stored.visible) return;
  const changed: RemotePostDoc = { ...stored, ...read, rev: stored.rev + 1 };
  if (await ctx.store.updateRemotePost(changed, stored.rev))
    await recordRemotePost(ctx, 'updated', changed, actor);
}

async function keepInteraction(
  ctx: FederationContext,
  what: { key: string; type: InteractionDoc['type']; source: string; read?: ReadNote },
  actor: ActorDoc,
  post: PostDoc,
  mode: 'create' | 'update' = 'create',
): Promise<void> {
  const now = ctx.clock.now();
  const fields = {
    contentHtml: what.read?.contentHtml ?? '',
    contentText: what.read?.contentText ?? '',
    published: what.read?.publishedAt ?? null,
  };
  const { doc, created } = await ctx.store.insertInteraction({
    key: what.key,
    type: what.type,
    actor: actor._id,
    postId: post._id,
    targetUserId: post.userId,
    source: what.source,
    ...fields,
    received: now,
    visible: true,
    rev: 1,
  });
  if (created) return recordInteraction(ctx, 'received', doc, actor, post);
  if (doc.actor !== actor._id || !doc.visible || mode !== 'update') return;
  const changed: InteractionDoc = { ...doc, ...fields, rev: doc.rev + 1 };
  if (await ctx.store.updateInteraction(changed, doc.rev))
    await recordInteraction(ctx, 'received', changed, actor, post);
}

async function hideInteraction(ctx: FederationContext, doc: InteractionDoc, actor: ActorDoc): Promise<void> {
  if (!doc.visible) return;
  const post = await ctx.store.postById(doc.postId);
  const changed: InteractionDoc = { ...doc, visible: false, rev: doc.rev + 1 };
  if (!(await ctx.store.updateInteraction(changed, doc.rev))) return;
  if (post) await recordInteraction(ctx, 'removed', changed, actor, post);
}

async function hideRemotePost(ctx: FederationContext, doc: RemotePostDoc, actor: ActorDoc): Promise<void> {
  if (!doc.visible) return;
  const changed: RemotePostDoc = { ...doc, visible: false, rev: doc.rev + 1 };
  if (await ctx.store.updateRemotePost(changed, doc.rev))
    await recordRemotePost(ctx, 'deleted', changed, actor);
}

// ---- update, delete -------------------------------------------------------------------------------

async function update(ctx: FederationContext, activity: Json, actor: ActorDoc): Promise<void> {
  const object = activity.object;
  if (idOf(object) === actor.actorId) {
    // A profile change: read it again from its server (what the activity carries is not a full actor).
    await fetchActor(ctx, actor.actorId).catch(() => undefined);
    return;
  }
  return createOrUpdateNote(ctx, activity, actor, 'update');
}

async function remove(ctx: FederationContext, activity: Json, actor: ActorDoc): Promise<void> {
  const objectId = idOf(activity.object);
  if (!objectId) return;
  if (objectId === actor.actorId) return removeActor(ctx, actor);
  const post = await ctx.store.remotePostByObjectId(objectId);
  if (post && post.actor === actor._id) await hideRemotePost(ctx, post, actor);
  const reply = await ctx.store.interactionByKey(objectId);
  if (reply && reply.actor === actor._id) await hideInteraction(ctx, reply, actor);
}

/** The account was deleted on its server: it leaves every follower list, timeline and conversation. */
async function removeActor(ctx: FederationContext, actor: ActorDoc): Promise<void> {
  await ctx.store.markActorDeleted(actor._id);
  const { followers } = await ctx.store.removeEdgesOfActor(actor._id);
  for (const edge of followers) {
    const user = await ctx.store.userById(edge.userId);
    if (user) await recordFollower(ctx, 'removed', user, actor, ctx.clock.now());
  }
  for (const post of await ctx.store.remotePostsOfActor(actor._id)) await hideRemotePost(ctx, post, actor);
  for (const doc of await ctx.store.interactionsOfActor(actor._id)) await hideInteraction(ctx, doc, actor);
}

// ---- likes and boosts -----------------------------------------------------------------------------

async function interact(
  ctx: FederationContext,
  activity: Json,
  actor: ActorDoc,
  type: 'like' | 'repost',
): Promise<void> {
  const post = await localPostAt(ctx, idOf(activity.object));
  if (!post) return; // of a post that is not ours (or no longer public): nothing of ours to show
  const id = idOf(activity.id)!;
  await keepInteraction(ctx, { key: id, type, source: id }, actor, post);
}

/**
 * Announce: of a local post, a boost shown with the post (a repost interaction); of another server's
 * post, by an account local users follow, the boosted post in their timelines, credited to the
 * booster (ADR 0020). The boosted object is read from its own server (an embedded copy is not
 * trusted: the booster's signature does not vouch for another account's words), it must be public
 * and its author is remembered for its card. Once per Announce id; Undo(Announce) removes it.
 */
async function announce(ctx: FederationContext, activity: Json, actor: ActorDoc): Promise<void> {
  const objectId = idOf(activity.object);
  if (await localPostAt(ctx, objectId)) return interact(ctx, activity, actor, 'repost');
  const key = idOf(activity.id);
  if (!objectId || !key || !isPublic(activity)) return;
  if ((await ctx.store.localFollowersOfActor(actor._id)).length === 0) return;
  const stored = await ctx.store.remotePostByObjectId(key);
  if (stored) return;
  let note: unknown;
  let author: ActorDoc;
  try {
    note = await fetchDocument(ctx, objectId);
    if (!isRecord(note) || idOf(note) !== objectId || !NOTE_TYPES.has(typeOf(note) ?? '')) return;
    if (!isPublic(note)) return;
    const authorId = idOf(note.attributedTo);
    if (!authorId || new URL(authorId).host !== new URL(objectId).host) return;
    author = await actorFor(ctx, authorId);
  } catch (err) {
    // The boosted post's server is gone or refused (SSRF guard): nothing to show.
    if (err instanceof RemoteError || err instanceof TypeError) {
      ctx.logger.info({ objectId, err: (err as Error).message }, 'a boosted post could not be read');
      return;
    }
    throw err;
  }
  const read = await readNote(ctx, note, objectId);
  const published = Date.parse(textOf(activity.published) ?? '');
  const { doc, created } = await ctx.store.insertRemotePost({
    ...read,
    objectId: key,
    // The boost is dated when it was boosted: it is new in the timeline then.
    publishedAt: Number.isFinite(published) ? new Date(published) : ctx.clock.now(),
    mentions: [],
    repostOf: { objectId, url: read.url, author: author._id },
    actor: actor._id,
    visible: true,
    rev: 1,
  });
  if (created) await recordRemotePost(ctx, 'received', doc, actor);
}
