// The public feeds built from post copies: a user's timeline (their own posts and those of everyone
// they follow), their mentions, and the service-wide photos feed. Which posts, in which order, comes
// from the in-memory index (domain/post-index.ts); only the page's posts are read from the store.
import { badRequest } from '@murmur/core';
import type { PostDoc, UserDoc } from '../store/index.js';
import type { FeedsContext } from './context.js';
import { feed, postItem, V1_1 } from './feed-json.js';
import { DEFAULT_CHANNEL, followeesOf, followeesWithChannels } from './follows.js';
import type { PostHead, Position, Range } from './post-index.js';
import { revisionTime } from './revisions.js';
import { profilesOf, userByUsernameOr404, type Profile } from './users.js';
import { validatorOf, type FeedView } from './views.js';

export const PHOTOS_LIMIT = 50;

/**
 * The page a feed selected and its validators, remembered per (feed, user, count) while nothing
 * they depend on changed: the index's version, the profiles' revision and the user's follow graph.
 * Polling readers (and their 304s) then cost a lookup instead of a merge.
 */
interface Selection {
  stamp: string;
  heads: PostHead[];
  validator: string;
  changedAtMs: number;
}

const MAX_SELECTIONS = 10_000;
const selections = new WeakMap<FeedsContext, Map<string, Selection>>();

function selectionCache(ctx: FeedsContext): Map<string, Selection> {
  let cache = selections.get(ctx);
  if (!cache) {
    cache = new Map();
    selections.set(ctx, cache);
  }
  return cache;
}

async function select(
  ctx: FeedsContext,
  key: string,
  graphVersion: number,
  compute: () => Promise<Omit<Selection, 'stamp'>>,
): Promise<Selection> {
  const cache = selectionCache(ctx);
  const stamp = `${ctx.index.version}:${ctx.profiles.rev}:${graphVersion}`;
  const hit = cache.get(key);
  if (hit?.stamp === stamp) return hit;
  const fresh = { stamp, ...(await compute()) };
  cache.delete(key);
  cache.set(key, fresh);
  if (cache.size > MAX_SELECTIONS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return fresh;
}

/** The documents of `heads`, from the store or, where it has not caught up yet, from the events. */
async function postsInOrder(ctx: FeedsContext, heads: PostHead[]): Promise<PostDoc[]> {
  if (heads.length === 0) return [];
  const docs = await ctx.store.postsByIds(heads.map((h) => h.id));
  const byId = new Map(docs.map((d) => [d._id, d]));
  return heads
    .map((h) => ctx.pending.resolve(h.id, byId.get(h.id)))
    .filter((d): d is PostDoc => d !== undefined);
}

async function withProfiles(ctx: FeedsContext, posts: PostDoc[]): Promise<Map<number, Profile>> {
  return profilesOf(
    ctx,
    posts.map((p) => p.userId),
  );
}

function headsKey(heads: PostHead[]): string {
  return heads.map((h) => `${h.id}:${h.rev}`).join(',');
}

/** The authors of `user`'s timeline: the user and everyone they follow. */
async function timelineAuthors(ctx: FeedsContext, user: UserDoc): Promise<number[]> {
  return [user._id, ...(await followeesOf(ctx, user))];
}

function feedUrl(ctx: FeedsContext, path: string): string {
  return `${ctx.config.PUBLIC_URL}${path}`;
}

/** A user's feed of posts (timeline, mentions): the selected heads, built into JSON Feed 1.1. */
function userPostsView(
  ctx: FeedsContext,
  user: Awaited<ReturnType<typeof userByUsernameOr404>>,
  selected: Omit<Selection, 'stamp'>,
  title: string,
  pathSuffix: string,
): FeedView {
  const { heads, validator, changedAtMs } = selected;
  return {
    validator,
    changedAtMs,
    async build() {
      const posts = await postsInOrder(ctx, heads);
      const profiles = await profilesOf(ctx, [user._id, ...posts.map((p) => p.userId)]);
      return feed(
        V1_1,
        `${user.username} ${title}`,
        posts.map((p) => postItem(p, profiles.get(p.userId))),
        {
          home: profiles.get(user._id)?.url,
          feed: feedUrl(ctx, `/feeds/${encodeURIComponent(user.username)}${pathSuffix}`),
        },
      );
    },
  };
}

export async function timelineView(ctx: FeedsContext, username: string, count: number): Promise<FeedView> {
  const user = await userByUsernameOr404(ctx, username);
  const { heads, validator, changedAtMs } = await select(
    ctx,
    `timeline:${user._id}:${count}`,
    user.graphVersion ?? 0,
    async () => {
      const authors = await timelineAuthors(ctx, user);
      const heads = ctx.index.timeline(authors, count);
      return {
        heads,
        changedAtMs: Math.max(
          revisionTime(ctx.index.authorsRev(authors)),
          user.graphChangedAt?.getTime() ?? 0,
          revisionTime(ctx.profiles.rev),
        ),
        validator: validatorOf([
          'timeline',
          user._id,
          user.username,
          count,
          user.graphVersion ?? 0,
          headsKey(heads),
          ctx.profiles.rev,
        ]),
      };
    },
  );
  return userPostsView(ctx, user, { heads, validator, changedAtMs }, 'timeline', '.json');
}

export async function mentionsView(ctx: FeedsContext, username: string, count: number): Promise<FeedView> {
  const user = await userByUsernameOr404(ctx, username);
  const { heads, validator, changedAtMs } = await select(
    ctx,
    `mentions:${user._id}:${count}`,
    0,
    async () => {
      const heads = ctx.index.mentions(user._id, count);
      return {
        heads,
        validator: validatorOf([
          'mentions',
          user._id,
          user.username,
          count,
          headsKey(heads),
          ctx.profiles.rev,
        ]),
        changedAtMs: Math.max(revisionTime(ctx.index.mentionsRev(user._id)), revisionTime(ctx.profiles.rev)),
      };
    },
  );
  return userPostsView(ctx, user, { heads, validator, changedAtMs }, 'mentions', '/mentions.json');
}

export function photosView(ctx: FeedsContext): FeedView {
  const heads = ctx.index.newestPhotos(PHOTOS_LIMIT);
  return {
    validator: validatorOf(['photos', headsKey(heads), ctx.profiles.rev]),
    changedAtMs: Math.max(revisionTime(ctx.index.photosRev), revisionTime(ctx.profiles.rev)),
    async build() {
      const posts = await postsInOrder(ctx, heads);
      const profiles = await withProfiles(ctx, posts);
      return feed(
        V1_1,
        'Photos',
        posts.map((p) => postItem(p, profiles.get(p.userId), { photos: p.photos })),
        { home: `${ctx.config.PUBLIC_URL}/`, feed: feedUrl(ctx, '/feeds/photos.json') },
      );
    },
  };
}

// ---- Microsub timelines (bus) --------------------------------------------------------------------

type TimelineKind = 'default' | 'mentions' | 'discover';

/**
 * The authors of a Microsub channel's part of `user`'s timeline: `default`, the user and the follows in
 * no channel; another channel, the follows made into it; no channel, the whole timeline's.
 */
async function channelAuthors(
  ctx: FeedsContext,
  user: UserDoc,
  channel: string | undefined,
): Promise<number[]> {
  if (channel === undefined) return timelineAuthors(ctx, user);
  const followees = await followeesWithChannels(ctx, user);
  if (channel === DEFAULT_CHANNEL) {
    return [user._id, ...followees.filter((f) => f.channel === undefined).map((f) => f.id)];
  }
  return followees.filter((f) => f.channel === channel).map((f) => f.id);
}

/** Selects the heads of a timeline of `kind` (the index's answer for `limit` and `range`). */
async function selector(
  ctx: FeedsContext,
  query: { kind: TimelineKind; channel?: string },
  user: UserDoc,
): Promise<(limit: number, range: Range) => PostHead[]> {
  if (query.channel !== undefined && query.kind !== 'default') {
    throw badRequest('channel: only the default timeline is narrowed to a channel', 'channel');
  }
  if (query.kind === 'mentions') return (limit, range) => ctx.index.mentions(user._id, limit, range);
  if (query.kind === 'discover') return (limit, range) => ctx.index.everyone(limit, range);
  const authors = await channelAuthors(ctx, user, query.channel);
  return (limit, range) => ctx.index.timeline(authors, limit, range);
}

function encodeCursor(p: Position): string {
  return Buffer.from(`${p.ms}:${p.id}`).toString('base64url');
}

function decodeCursor(text: string | undefined, name: string): Position | undefined {
  if (text === undefined) return undefined;
  const match = /^(-?\d{1,16}):(\d{1,16})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match) throw badRequest(`${name}: not a cursor this service gave out`, name);
  return { ms: Number(match[1]), id: Number(match[2]) };
}

export interface TimelinePage {
  posts: PostDoc[];
  profiles: Map<number, Profile>;
  before?: string;
  after?: string;
}

export async function timelinePage(
  ctx: FeedsContext,
  query: {
    userId: number;
    kind: TimelineKind;
    channel?: string;
    before?: string;
    after?: string;
    limit: number;
  },
  user: UserDoc,
): Promise<TimelinePage> {
  const range: Range = {};
  const before = decodeCursor(query.before, 'before');
  const after = decodeCursor(query.after, 'after');
  if (before) range.before = before;
  if (after) range.after = after;
  const select = await selector(ctx, query, user);
  // One more than asked tells whether another page exists in the direction of travel. Paging down
  // (`before`, or no cursor) the extra one is the oldest; paging up (`after`) the index returns the
  // items just newer than the cursor, so the extra one is the newest and the page keeps the others:
  // dropping the oldest would skip the item right after the cursor.
  const heads = select(query.limit + 1, range);
  const upward = after !== undefined;
  const page = upward ? heads.slice(Math.max(0, heads.length - query.limit)) : heads.slice(0, query.limit);
  // Paging up, the cursor's own item and everything older remain below this page.
  const more = upward ? page.length > 0 : heads.length > query.limit;
  const posts = await postsInOrder(ctx, page);
  const profiles = await withProfiles(ctx, posts);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    posts,
    profiles,
    ...(more && last ? { before: encodeCursor({ ms: last.publishedAtMs, id: last.id }) } : {}),
    ...(first ? { after: encodeCursor({ ms: first.publishedAtMs, id: first.id }) } : {}),
  };
}

/**
 * feeds.timeline.positions: the heads of the newest `limit` items of a timeline below `before` and
 * newer than `since`, from the index alone — no post is read from the store and no profile is built,
 * which is what lets the Microsub adapter count unread items for the cost of a merge.
 */
export async function timelinePositions(
  ctx: FeedsContext,
  query: {
    userId: number;
    kind: TimelineKind;
    channel?: string;
    before?: string;
    since?: Position;
    limit: number;
  },
  user: UserDoc,
): Promise<{ heads: PostHead[]; before?: string }> {
  const before = decodeCursor(query.before, 'before');
  const select = await selector(ctx, query, user);
  const above: Range = before ? { before } : {};
  let heads = select(query.limit + 1, query.since ? { ...above, after: query.since } : above);
  // With `after` the index answers the items nearest to it; when more than `limit` are in the range,
  // the newest ones below `before` are all in it, and those are what this request answers.
  if (query.since && heads.length > query.limit) heads = select(query.limit + 1, above);
  const page = heads.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    heads: page,
    ...(heads.length > query.limit && last
      ? { before: encodeCursor({ ms: last.publishedAtMs, id: last.id }) }
      : {}),
  };
}
