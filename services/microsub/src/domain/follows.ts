// Follow actions (docs/api/microsub.md "Follow actions"), answered by the feeds service over the bus:
// microsub resolves what the client named — a username, a profile URL, any URL on a user's site, or a
// user's JSON Feed URL — and never fetches anything to do so.
import type { z } from 'zod';
import { feeds } from '@murmur/contracts';
import { badRequest, isAppError, type BusHeaders } from '@murmur/platform';
import type { followListSchema } from '../routes/schemas.js';
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

export async function follow(
  ctx: MicrosubContext,
  userId: number,
  target: FollowTarget,
  headers: BusHeaders,
): Promise<void> {
  await tryEach(candidates(ctx, target), (form) =>
    ctx.bus.request(feeds.followCreate, { userId, ...form }, { headers }),
  );
}

export async function unfollow(
  ctx: MicrosubContext,
  userId: number,
  target: FollowTarget,
  headers: BusHeaders,
): Promise<void> {
  await tryEach(candidates(ctx, target), (form) =>
    ctx.bus.request(feeds.followDelete, { userId, ...form }, { headers }),
  );
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
  return {
    items: cards.map((c) => ({ type: 'feed', url: c.url, name: c.name || c.username, photo: c.photo })),
  };
}
