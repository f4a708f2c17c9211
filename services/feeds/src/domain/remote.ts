// Accounts and posts of other servers (the federation service's, libs/contracts federation.ts): a
// remote account is kept as a user whose id is at or above REMOTE_ID_BASE and whose username is its
// handle (`name@host`), so following it, the timeline merge and author cards work as for local
// users. Its public posts arrive as events, like publishing's.
import { federation, type EventEnvelope } from '@murmur/contracts';
import { BusNoResponderError } from '@murmur/bus';
import { isAppError, notFound } from '@murmur/core';
import type { PostDoc, UserDoc } from '../store/index.js';
import type { FeedsContext } from './context.js';
import { headOf } from './copies.js';
import { revisionOf } from './revisions.js';

/** The one 404 message for a user, local (users.ts re-exports it) or remote: no account is told apart. */
export const NO_SUCH_USER = 'No such user.';

export const isRemoteHandle = federation.isHandle;

async function rememberAccount(
  ctx: FeedsContext,
  account: federation.RemoteAccount,
  rev: number,
): Promise<void> {
  const applied = await ctx.store.applyUser({
    _id: account.id,
    username: account.handle,
    usernameKey: account.handle.toLowerCase(),
    name: account.name,
    avatar: account.photo,
    url: account.url,
    remote: true,
    rev,
  });
  if (applied) ctx.profiles.rev = Math.max(ctx.profiles.rev, rev);
}

/**
 * The remote account a handle or a URL names, asked of the federation service (WebFinger, the actor
 * document). 404 when it names none — also when federation is off or not deployed, so a URL that is
 * no account can still be followed as a web feed (Microsub).
 */
export async function resolveRemote(ctx: FeedsContext, target: string): Promise<UserDoc> {
  let account: federation.RemoteAccount;
  try {
    ({ account } = await ctx.bus.request(federation.accountResolve, { target }, { timeoutMs: 30_000 }));
  } catch (err) {
    if (
      err instanceof BusNoResponderError ||
      (isAppError(err) && (err.status === 404 || err.status === 403))
    ) {
      throw notFound(
        isAppError(err) && err.status === 403 && isRemoteHandle(target) ? err.message : NO_SUCH_USER,
      );
    }
    throw err;
  }
  await rememberAccount(ctx, account, 1);
  const user = await ctx.store.userById(account.id);
  if (!user) throw notFound(NO_SUCH_USER);
  return user;
}

type RemoteVerb = 'received' | 'updated' | 'deleted';

function remotePostDoc(post: federation.RemotePost, verb: RemoteVerb, rev: number): PostDoc {
  return {
    _id: post.id,
    userId: post.author.id,
    siteId: 0,
    url: post.url,
    title: post.title,
    contentHtml: post.contentHtml,
    contentText: post.contentText,
    publishedAt: new Date(Date.parse(post.publishedAt)),
    photos: post.photos,
    mentionIds: [...new Set(post.mentions.map((m) => m.userId))],
    categories: [],
    visible: verb !== 'deleted',
    remote: true,
    ...(post.repostOf
      ? {
          repostOf: {
            url: post.repostOf.url,
            author: {
              username: post.repostOf.author.handle,
              name: post.repostOf.author.name,
              url: post.repostOf.author.url,
              photo: post.repostOf.author.photo,
            },
          },
        }
      : {}),
    rev,
  };
}

const KIND = { received: 'published', updated: 'updated', deleted: 'deleted' } as const;

/** The durable consumer: the author's card and the post's copy, then this process's index. */
export async function applyRemotePostEvent(
  ctx: FeedsContext,
  verb: RemoteVerb,
  event: EventEnvelope<federation.RemotePost>,
): Promise<void> {
  const rev = revisionOf(event.occurredAt, KIND[verb]);
  await rememberAccount(ctx, event.data.author, rev);
  const doc = remotePostDoc(event.data, verb, rev);
  await ctx.store.applyPost(doc);
  ctx.pending.stored(doc);
  ctx.index.apply(headOf(doc));
}

/**
 * Every replica's listener (as for local posts, copies.ts indexPostEvent). The author's card is kept
 * first: the post is in the index from here on, and must not show without its author meanwhile.
 */
export async function indexRemotePostEvent(
  ctx: FeedsContext,
  verb: RemoteVerb,
  event: EventEnvelope<federation.RemotePost>,
): Promise<void> {
  const rev = revisionOf(event.occurredAt, KIND[verb]);
  await rememberAccount(ctx, event.data.author, rev);
  const doc = remotePostDoc(event.data, verb, rev);
  ctx.pending.remember(doc);
  ctx.index.apply(headOf(doc));
}
