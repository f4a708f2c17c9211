// Site icons (docs/api/reader.md "Icons"): `<link rel="icon">`, then `apple-touch-icon`, from the site's page;
// else `/favicon.ico` when the site serves one. Only the URL is stored, refreshed daily. The page is
// read with the platform's sliced tag scan, its first ICON_SCAN_CHARS only (docs/security.md, "Parsing
// fetched documents").
import { FETCH_LIMITS, FetchError, scanHtml } from '@murmur/fetch';
import { handleJob } from '@murmur/jobs';
import type { ReaderContext } from '../domain/context.js';
import { refreshIconJob, type IconPayload } from '../domain/jobs.js';
import { httpUrl } from '../feeds/html.js';
import { decodeBody } from '../feeds/parse.js';

// A failure leaves the site without an icon (clients show their own placeholder) until the next
// daily refresh; an unreachable site is not a failure (the icon is recorded as none).
export const refreshIconJobDefinition = handleJob(refreshIconJob, (ctx: ReaderContext, payload) =>
  refreshIcon(ctx, payload),
);

export const ICON_MAX_AGE_MS = 24 * 60 * 60_000;

/** Characters of a site's page read for its icons (they are declared in its `<head>`). */
export const ICON_SCAN_CHARS = 512 * 1024;

/** The icon URLs a page declares in its first ICON_SCAN_CHARS, best first. */
export async function declaredIcons(html: string, pageUrl: string): Promise<string[]> {
  let base = pageUrl;
  const icons: string[] = [];
  const touch: string[] = [];
  const collect = (name: string, attrs: Record<string, string>) => {
    if (name === 'base' && attrs.href) base = httpUrl(attrs.href, pageUrl) ?? base;
    if (name !== 'link' || !attrs.href) return;
    const rels = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    const href = httpUrl(attrs.href, base);
    if (!href) return;
    if (rels.includes('icon')) icons.push(href);
    else if (rels.includes('apple-touch-icon') || rels.includes('apple-touch-icon-precomposed'))
      touch.push(href);
    // The first icon is the one kept: nothing further down can beat it.
    return icons.length === 0;
  };
  await scanHtml(html, { onopentag: collect }, { maxChars: ICON_SCAN_CHARS });
  return [...icons, ...touch];
}

async function findIcon(ctx: ReaderContext, siteUrl: string): Promise<string | null> {
  const limits = { ...FETCH_LIMITS.icon, truncate: true };
  try {
    const page = await ctx.fetcher.fetch(siteUrl, { limits, accept: 'text/html' });
    if (page.status >= 200 && page.status < 300) {
      const declared = await declaredIcons(decodeBody(page.body, page.headers['content-type']), page.url);
      if (declared.length > 0) return declared[0]!;
    }
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
  }
  const favicon = `${new URL(siteUrl).origin}/favicon.ico`;
  try {
    const res = await ctx.fetcher.fetch(favicon, { limits: FETCH_LIMITS.icon, accept: 'image/*' });
    const type = (res.headers['content-type'] ?? '').toLowerCase();
    const isImage = type.startsWith('image/') || type === 'application/octet-stream' || type === '';
    return res.status === 200 && res.body.length > 0 && isImage ? favicon : null;
  } catch (err) {
    if (err instanceof FetchError) return null;
    throw err;
  }
}

export async function refreshIcon(ctx: ReaderContext, payload: IconPayload): Promise<void> {
  const url = await findIcon(ctx, payload.siteUrl);
  await ctx.store.recordIcon(payload.host, url, ctx.clock.nowDate());
}
