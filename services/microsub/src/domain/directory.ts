// The user directory behind search and preview (docs/api/microsub.md "Search and preview"): copies of
// users (evt.identity.user.*) and their sites (evt.publishing.site.*), applied only when newer, and
// the rules that turn a name, a URL or a query into users. No outbound request is ever made.
import type { z } from 'zod';
import { identity, type EventEnvelope, type PublicUser, type publishing } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { isAppError, notFound } from '@murmur/core';
import type { feedSchema } from '../shapes.js';
import type { DirectorySiteDoc, DirectoryUserDoc } from '../store.js';
import type { MicrosubContext } from './context.js';
import type { FollowTarget } from './follows.js';

export const SEARCH_RESULTS = 20;

/** An event's revision: its time, a creation before an update of the same millisecond. */
function revisionOf(event: EventEnvelope<unknown>, kind: 'created' | 'updated'): number {
  const ms = Date.parse(event.occurredAt);
  return (Number.isFinite(ms) ? ms : 0) * 2 + (kind === 'updated' ? 1 : 0);
}

function userDoc(user: PublicUser): Omit<DirectoryUserDoc, 'rev'> {
  return {
    _id: user.id,
    username: user.username,
    usernameKey: user.username.toLowerCase(),
    name: user.name,
    avatar: user.avatar,
  };
}

export async function rememberUser(
  ctx: MicrosubContext,
  event: EventEnvelope<{ user: PublicUser }>,
  kind: 'created' | 'updated',
): Promise<void> {
  await ctx.store.applyUser(userDoc(event.data.user), revisionOf(event, kind));
}

export async function rememberSite(
  ctx: MicrosubContext,
  event: EventEnvelope<{ site: publishing.Site }>,
  kind: 'created' | 'updated',
): Promise<void> {
  const { site } = event.data;
  await ctx.store.applySite(
    {
      _id: site.id,
      userId: site.userId,
      host: site.host.toLowerCase(),
      url: site.url,
      isDefault: site.isDefault,
    },
    site.revision ?? revisionOf(event, kind),
  );
}

type FeedJson = z.input<typeof feedSchema>;

/** A user as a search result: their profile URL (`me`) is their default site's, else `{PUBLIC_URL}/{username}/`. */
function feedOf(ctx: MicrosubContext, user: DirectoryUserDoc, sites: DirectorySiteDoc[]): FeedJson {
  const home = sites.find((s) => s.userId === user._id && s.isDefault);
  return {
    type: 'feed',
    url: home?.url ?? `${ctx.config.PUBLIC_URL}/${encodeURIComponent(user.username)}/`,
    name: user.name || user.username,
    photo: user.avatar,
  };
}

/** Users whose username, name or site host contains `query` (case-insensitive), at most 20. */
export async function searchUsers(
  ctx: MicrosubContext,
  query: string,
  headers: BusHeaders,
): Promise<{ results: FeedJson[] }> {
  const needle = query.toLowerCase();
  const [users, sites] = await Promise.all([ctx.store.allUsers(), ctx.store.allSites()]);
  const byHost = new Set(sites.filter((s) => s.host.includes(needle)).map((s) => s.userId));
  const found = users
    .filter(
      (u) => u.usernameKey.includes(needle) || u.name.toLowerCase().includes(needle) || byHost.has(u._id),
    )
    .sort((a, b) => a.usernameKey.localeCompare(b.usernameKey));
  // A user this process has no copy of yet (created before microsub was deployed) is found by exact name.
  if (!found.some((u) => u.usernameKey === needle) && /^[a-z0-9_.-]{1,64}$/.test(needle)) {
    const known = await userFromIdentity(ctx, { username: needle }, headers);
    if (known) found.unshift(known);
  }
  return { results: found.slice(0, SEARCH_RESULTS).map((u) => feedOf(ctx, u, sites)) };
}

async function userFromIdentity(
  ctx: MicrosubContext,
  query: { username: string } | { id: number },
  headers: BusHeaders,
): Promise<DirectoryUserDoc | undefined> {
  try {
    const { user } = await ctx.bus.request(identity.usersGet, query, { headers });
    return user ? { ...userDoc(user), rev: 0 } : undefined;
  } catch (err) {
    if (isAppError(err) && err.status < 500) return undefined;
    throw err;
  }
}

const NO_SUCH_USER = 'No such user.';

/** The user a follow target names (the same URL forms as follows), or 404. */
export async function resolveUser(
  ctx: MicrosubContext,
  target: FollowTarget,
  headers: BusHeaders,
): Promise<DirectoryUserDoc> {
  let username: string | undefined;
  if ('username' in target) username = target.username;
  else {
    const url = new URL(target.url);
    const base = `${ctx.config.PUBLIC_URL}/`;
    const rest = url.href.startsWith(base) ? url.href.slice(base.length) : undefined;
    const feed = rest === undefined ? null : /^feeds\/([^/?#]+)\.json$/.exec(rest);
    const profile = rest === undefined ? null : /^([^/?#]+)\/?$/.exec(rest);
    if (feed) username = decodeURIComponent(feed[1]!);
    else if (profile) username = decodeURIComponent(profile[1]!);
    else {
      const site =
        (await ctx.store.siteByUrl(url.href)) ?? (await ctx.store.siteByHost(url.host.toLowerCase()));
      const user = site ? await userById(ctx, site.userId, headers) : undefined;
      if (user) return user;
    }
  }
  if (username !== undefined) {
    const user =
      (await ctx.store.userByUsername(username)) ?? (await userFromIdentity(ctx, { username }, headers));
    if (user) return user;
  }
  throw notFound(NO_SUCH_USER);
}

async function userById(
  ctx: MicrosubContext,
  id: number,
  headers: BusHeaders,
): Promise<DirectoryUserDoc | undefined> {
  return (await ctx.store.userById(id)) ?? userFromIdentity(ctx, { id }, headers);
}
