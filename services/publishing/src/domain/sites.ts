// Sites: every user has a default site (made when identity announces the account, or at the user's first
// XML-RPC call if that came first), served at {PUBLIC_URL}/sites/{username}/ or on its own host.
import { identity, publishing } from '@murmur/contracts';
import { DuplicateKeyError, formatOffsetTime } from '@murmur/platform';
import type { SiteDoc } from '../store.js';
import type { BusHeaders, Caller, PublishingContext } from './context.js';
import { notYourSite, siteNotFound } from './errors.js';

type Site = publishing.Site;

/** Absolute URL of a site's home page, ending in `/`; from configuration, never from a request. */
export function siteUrl(ctx: PublishingContext, site: Pick<SiteDoc, 'host' | 'username'>): string {
  if (site.host) return `${new URL(ctx.config.PUBLIC_URL).protocol}//${site.host}/`;
  return `${ctx.config.PUBLIC_URL}/sites/${encodeURIComponent(site.username)}/`;
}

export function siteHost(ctx: PublishingContext, site: SiteDoc): string {
  return site.host ?? new URL(ctx.config.PUBLIC_URL).host;
}

export function siteName(site: SiteDoc): string {
  return site.ownerName.trim() !== '' ? site.ownerName : site.username;
}

export function publicSite(ctx: PublishingContext, site: SiteDoc): Site {
  return {
    id: site._id,
    userId: site.userId,
    username: site.username,
    host: siteHost(ctx, site),
    url: siteUrl(ctx, site),
    isDefault: site.isDefault,
    createdAt: formatOffsetTime(site.createdAt),
    title: siteName(site),
  };
}

export interface SiteOwner {
  userId: number;
  username: string;
  /** Display name when known. */
  name?: string;
}

/**
 * The user's default site, created when missing. Safe to run twice at once (the unique `defaultOf` index
 * keeps one); only the call that creates it announces `evt.publishing.site.created`.
 */
export async function ensureDefaultSite(
  ctx: PublishingContext,
  owner: SiteOwner,
  headers: BusHeaders,
): Promise<SiteDoc> {
  const existing = await ctx.store.sites.findOne({ defaultOf: owner.userId });
  if (existing) return existing;
  let name = owner.name;
  if (name === undefined) {
    const found = await ctx.bus.request(identity.usersGet, { id: owner.userId }, { headers });
    name = found.user ? found.user.name || found.user.fullName : '';
  }
  const now = new Date();
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
  };
  try {
    await ctx.store.sites.insertOne(site);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const winner = await ctx.store.sites.findOne({ defaultOf: owner.userId });
    if (winner) return winner;
    throw err;
  }
  await ctx.bus.publish(
    publishing.siteCreated,
    { site: publicSite(ctx, site) },
    { headers, id: `site-${site._id}-created` },
  );
  ctx.logger.info({ siteId: site._id, userId: owner.userId }, 'site created');
  return site;
}

/**
 * The site a site-id parameter names (publishing.md): `0` or the caller's username → the default site;
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
  if (/^\d{1,10}$/.test(text)) site = await ctx.store.sites.findOne({ _id: Number(text) });
  else site = await ctx.store.sites.findOne({ username: text.toLowerCase(), isDefault: true });
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
  const others = await ctx.store.sites.find(
    { userId: caller.userId, isDefault: false },
    { sort: { _id: 1 } },
  );
  return [main, ...others];
}

/** Keeps the owner's display name (shown as post author) in step with identity. */
export async function renameOwner(ctx: PublishingContext, userId: number, name: string): Promise<void> {
  await ctx.store.sites.updateMany({ userId }, { $set: { ownerName: name, updatedAt: new Date() } });
}
