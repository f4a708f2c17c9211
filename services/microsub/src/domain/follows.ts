// Follow actions (docs/api/microsub.md "Follows"), answered by the feeds service over the bus:
// microsub resolves what the client named — a username, a profile URL, any URL on a user's site, or a
// user's JSON Feed URL — and never fetches anything to do so. A URL that is none of these is followed
// on the open web through the reader (reader.webfollow.*), whose discovery fetches it safely. A follow
// of a user goes into the channel the client chose (feeds keeps it with the follow); feeds of the open
// web go into `default` only, since the reader's entries do not say which feed they come from.
import type { z } from 'zod';
import { feeds, reader } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { badRequest, isAppError, notFound } from '@murmur/core';
import type { followListSchema } from '../shapes.js';
import { DEFAULT_UID, type Channel } from './channels.js';
import type { MicrosubContext } from './context.js';

export type FollowTarget = { username: string } | { url: string };

/** The forms of a target to try in turn: the URL as given, then its site's home page. */
function candidates(ctx: MicrosubContext, target: FollowTarget): FollowTarget[] {
  if ('username' in target) return [target];
  const url = new URL(target.url);
  // `{PUBLIC_URL}/feeds/{username}.json` is the user's JSON Feed.
  const feedPrefix = `${ctx.config.PUBLIC_URL}/feeds/`;
  if (url.href.startsWith(feedPrefix)) {
    const match = /^([^/?#]+)\.json$/.exec(url.href.slice(feedPrefix.length));
    if (match) return [{ username: decodeURIComponent(match[1]!) }];
  }
  const home = `${url.origin}/`;
  return home === url.href ? [target] : [target, { url: home }];
}

async function tryEach<T>(forms: FollowTarget[], ask: (form: FollowTarget) => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await ask(forms[i]!);
    } catch (err) {
      // Not one of our users in this form: try the next form, else the 404 stands.
      if (isAppError(err) && err.status === 404 && i < forms.length - 1) continue;
      throw err;
    }
  }
}

const NOT_A_FEED = 'url: neither a user of this service nor a feed';

function isNotFound(err: unknown): boolean {
  return isAppError(err) && err.status === 404;
}

/** The channel a follow may go into: `default` or one the user created. */
export function checkFollowChannel(channel: Channel): void {
  if (!channel.holdsFollows) {
    throw badRequest(
      `channel: follows go to the default channel or a channel you created, not "${channel.uid}"`,
      'channel',
    );
  }
}

/** Follows `target` into `channel` (one that holds follows); a user already followed moves there. */
export async function follow(
  ctx: MicrosubContext,
  userId: number,
  target: FollowTarget,
  channel: Channel,
  headers: BusHeaders,
): Promise<void> {
  checkFollowChannel(channel);
  try {
    await tryEach(candidates(ctx, target), (form) =>
      ctx.bus.request(feeds.followCreate, { userId, ...form, channel: channel.uid }, { headers }),
    );
  } catch (err) {
    if (!isNotFound(err) || !('url' in target)) throw err;
    if (channel.uid !== DEFAULT_UID) {
      throw badRequest(
        'url: names no user of this service; feeds on the open web can be followed into the default channel only',
        'url',
      );
    }
    // Not one of our users: a feed on the open web, or a page that links one.
    const web = await ctx.bus.request(
      reader.webFollowCreate,
      { userId, url: target.url },
      { headers, timeoutMs: 30_000 },
    );
    if (!web.found) throw notFound(NOT_A_FEED);
  }
}

export async function unfollow(
  ctx: MicrosubContext,
  userId: number,
  target: FollowTarget,
  headers: BusHeaders,
): Promise<void> {
  try {
    await tryEach(candidates(ctx, target), (form) =>
      ctx.bus.request(feeds.followDelete, { userId, ...form }, { headers }),
    );
  } catch (err) {
    if (!isNotFound(err) || !('url' in target)) throw err;
    const web = await ctx.bus.request(reader.webFollowDelete, { userId, url: target.url }, { headers });
    if (!web.known) throw err;
  }
}

/**
 * Whom the user follows: everyone (no channel given), or those followed into `channel` (`default`:
 * the users in no other channel, and the feeds of the open web; a channel holding no follows: none).
 */
export async function following(
  ctx: MicrosubContext,
  userId: number,
  channel: Channel | undefined,
  headers: BusHeaders,
): Promise<z.input<typeof followListSchema>> {
  if (channel && !channel.holdsFollows) return { items: [] };
  let cards: (feeds.Card & { channel?: string })[];
  try {
    cards = (await ctx.bus.request(feeds.followingList, { userId }, { headers })).items;
  } catch (err) {
    // Feeds has not heard of the user yet: they follow nobody.
    if (isAppError(err) && err.status === 404) cards = [];
    else throw err;
  }
  if (channel) cards = cards.filter((c) => (c.channel ?? DEFAULT_UID) === channel.uid);
  let web: reader.WebFeed[] = [];
  if (!channel || channel.uid === DEFAULT_UID) {
    try {
      web = (await ctx.bus.request(reader.webFollowList, { userId }, { headers })).items;
    } catch (err) {
      ctx.logger.warn({ err }, 'reader did not list open-web follows; showing users only');
    }
  }
  return {
    items: [
      ...cards.map((c) => ({
        type: 'feed' as const,
        url: c.url,
        name: c.name || c.username,
        photo: c.photo,
      })),
      ...web.map((f) => ({ type: 'feed' as const, url: f.url, name: f.title })),
    ],
  };
}
