// Sites: every user has a default site (made when identity announces the account, or at the user's first
// XML-RPC call if that came first), served at {PUBLIC_URL}/sites/{username}/ or on its own host.
import { identity, publishing } from '@murmur/contracts';
import { badRequest, conflict, notFound } from '@murmur/core';
import { eventIdFor } from '@murmur/jobs';
import { DuplicateKeyError } from '@murmur/store';
import type { SiteDoc } from '../store.js';
import type { BusHeaders, Caller, PublishingContext } from './context.js';
import { notYourSite, siteNotFound } from './errors.js';
import { publicSite } from './site-json.js';

type Site = publishing.Site;

export interface SiteOwner {
  userId: number;
  username: string;
  /** Display name when known. */
  name?: string;
}

/** The id of a site event: `created` always has revision 1, so announcing it again records nothing new. */
export function siteEventId(siteId: number, revision: number, verb: 'created' | 'updated'): string {
  return eventIdFor('publishing', 'site', siteId, revision, verb);
}

async function announceCreated(ctx: PublishingContext, site: SiteDoc, headers: BusHeaders): Promise<void> {
  await ctx.outbox.publish(
    publishing.siteCreated,
    { site: publicSite(ctx, site) },
    { headers, id: siteEventId(site._id, 1, 'created') },
  );
}

/**
 * The user's default site, created when missing. Safe to run twice at once (the unique `defaultOf` index
 * keeps one). The creating call records `evt.publishing.site.created` in the outbox; with
 * `announceExisting` (identity's user.created, which may be a redelivery) an existing site is announced
 * again under the same event id, so an event lost before it was recorded is recorded now, and one
 * already recorded is not recorded twice.
 */
export async function ensureDefaultSite(
  ctx: PublishingContext,
  owner: SiteOwner,
  headers: BusHeaders,
  options: { announceExisting?: boolean } = {},
): Promise<SiteDoc> {
  const existing = await ctx.store.defaultSiteOf(owner.userId);
  if (existing) {
    if (options.announceExisting) await announceCreated(ctx, existing, headers);
    return existing;
  }
  let name = owner.name;
  if (name === undefined) {
    const found = await ctx.bus.request(identity.usersGet, { id: owner.userId }, { headers });
    name = found.user ? found.user.name || found.user.fullName : '';
  }
  const now = ctx.clock.now();
  const site: SiteDoc = {
    _id: await ctx.store.nextSiteId(),
    userId: owner.userId,
    username: owner.username,
    ownerName: name,
    host: null,
    isDefault: true,
    defaultOf: owner.userId,
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
  try {
    await ctx.store.insertSite(site);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const winner = await ctx.store.defaultSiteOf(owner.userId);
    if (winner) return winner;
    throw err;
  }
  await announceCreated(ctx, site, headers);
  ctx.logger.info({ siteId: site._id, userId: owner.userId }, 'site created');
  return site;
}

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A username's default site (its public pages), or null. */
export function defaultSiteOfUsername(ctx: PublishingContext, username: string): Promise<SiteDoc | null> {
  return ctx.store.defaultSiteOfUsername(username.toLowerCase());
}

/** The site served on a custom host, or null. */
export function siteOfHost(ctx: PublishingContext, host: string): Promise<SiteDoc | null> {
  return ctx.store.siteByHost(host.toLowerCase());
}

/**
 * The site `url` belongs to (`publishing.site.at`): the site on its own host, else the default site
 * under `{PUBLIC_URL}/sites/{username}/`; null when it is none of ours.
 */
export async function siteAtUrl(ctx: PublishingContext, url: string): Promise<SiteDoc | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const own = await siteOfHost(ctx, parsed.hostname);
  if (own) return own;
  const base = new URL(ctx.config.PUBLIC_URL);
  if (parsed.host.toLowerCase() !== base.host.toLowerCase()) return null;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/sites/`;
  if (!parsed.pathname.startsWith(prefix)) return null;
  const username = parsed.pathname.slice(prefix.length).split('/')[0] ?? '';
  return /^[A-Za-z][A-Za-z0-9_]{0,29}$/.test(username) ? defaultSiteOfUsername(ctx, username) : null;
}

/** The sites of a username (operator API). */
export function sitesOfUsername(ctx: PublishingContext, username: string): Promise<SiteDoc[]> {
  return ctx.store.sitesByUsername(username.toLowerCase());
}

/**
 * Gives a site its own host, or takes it away (`''`), and announces `evt.publishing.site.updated`.
 * The host is checked first: a host name, not the public URL's own, not another site's.
 */
export async function setSiteHost(
  ctx: PublishingContext,
  siteId: number,
  hostText: string,
  headers: BusHeaders,
): Promise<Site> {
  const host = hostText.toLowerCase();
  if (host !== '' && !HOST.test(host))
    throw badRequest('host: must be a host name such as blog.example.com', 'host');
  if (host !== '' && host === new URL(ctx.config.PUBLIC_URL).hostname)
    throw badRequest('host: that is the public URL’s own host', 'host');
  let site: SiteDoc | null;
  try {
    site = await ctx.store.setSiteHost(siteId, host === '' ? null : host, ctx.clock.now());
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw conflict('host: another site uses that host');
    throw err;
  }
  if (!site) throw notFound('No such site.');
  const view = publicSite(ctx, site);
  await ctx.outbox.publish(
    publishing.siteUpdated,
    { site: view },
    { headers, id: siteEventId(site._id, site.revision ?? 1, 'updated') },
  );
  return view;
}

/**
 * The site a site-id parameter names (docs/api/publishing.md): `0` or the caller's username → the default site;
 * the caller's site id → that site; another user's site → 401; anything else → 404.
 */
export async function resolveSite(
  ctx: PublishingContext,
  caller: Caller,
  ref: string,
  headers: BusHeaders,
): Promise<SiteDoc> {
  const text = ref.trim();
  if (text === '0' || text.toLowerCase() === caller.username.toLowerCase()) {
    return ensureDefaultSite(ctx, caller, headers);
  }
  let site: SiteDoc | null = null;
  if (/^\d{1,10}$/.test(text)) site = await ctx.store.siteById(Number(text));
  else site = await ctx.store.defaultSiteOfUsername(text.toLowerCase());
  if (!site) throw siteNotFound();
  if (site.userId !== caller.userId) throw notYourSite();
  return site;
}

/** The user's sites, default first. */
export async function sitesOf(
  ctx: PublishingContext,
  caller: Caller,
  headers: BusHeaders,
): Promise<SiteDoc[]> {
  const main = await ensureDefaultSite(ctx, caller, headers);
  const others = await ctx.store.otherSitesOf(caller.userId);
  return [main, ...others];
}

/** Keeps the owner's display name (shown as post author) in step with identity. */
export async function renameOwner(ctx: PublishingContext, userId: number, name: string): Promise<void> {
  await ctx.store.renameSiteOwner(userId, name, ctx.clock.now());
}
