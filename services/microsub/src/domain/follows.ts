// Follow actions (docs/api/microsub.md "Follows"), answered by the feeds service over the bus:
// microsub resolves what the client named — a username, a profile URL, any URL on a user's site, or a
// user's JSON Feed URL — and never fetches anything to do so. A URL that is none of these is followed
// on the open web through the reader (reader.webfollow.*), whose discovery fetches it safely.
import type { z } from 'zod';
import { feeds, reader } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { badRequest, isAppError, notFound } from '@murmur/core';
import type { followListSchema } from '../shapes.js';
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

export async function follow(
  ctx: MicrosubContext,
  userId: number,
  target: FollowTarget,
  headers: BusHeaders,
): Promise<void> {
  try {
    await tryEach(candidates(ctx, target), (form) =>
      ctx.bus.request(feeds.followCreate, { userId, ...form }, { headers }),
    );
  } catch (err) {
    if (!isNotFound(err) || !('url' in target)) throw err;
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

/** Only the default channel holds follows. */
export function checkFollowChannel(channel: string | undefined): void {
  if (channel !== undefined && channel !== 'default') {
    throw badRequest('channel: follows go to the default channel only', 'channel');
  }
}

export async function following(
  ctx: MicrosubContext,
  userId: number,
  headers: BusHeaders,
): Promise<z.input<typeof followListSchema>> {
  let cards: feeds.Card[];
  try {
    cards = (await ctx.bus.request(feeds.followingList, { userId }, { headers })).items;
  } catch (err) {
    // Feeds has not heard of the user yet: they follow nobody.
    if (isAppError(err) && err.status === 404) cards = [];
    else throw err;
  }
  let web: reader.WebFeed[] = [];
  try {
    web = (await ctx.bus.request(reader.webFollowList, { userId }, { headers })).items;
  } catch (err) {
    ctx.logger.warn({ err }, 'reader did not list open-web follows; showing users only');
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
