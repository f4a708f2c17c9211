// How a site is shown: its URL, host and name, and its public copy (events, the operator API).
import type { publishing } from '@murmur/contracts';
import { formatOffsetTime } from '@murmur/core';
import type { SiteDoc } from '../store.js';
import type { PublishingContext } from './context.js';

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
    revision: site.revision ?? 1,
  };
}
