// Fetching saved pages through the platform's safe fetcher (SSRF guard, time and size limits) and
// reading them: a bookmark's title, site name and podcast audio; a read-later article extracted with
// Readability over linkedom and sanitised like every third-party HTML we store.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { FETCH_LIMITS, FetchError, sanitizeHtmlFragment, type FetchResponse } from '@murmur/fetch';
import type { FeedsContext } from './context.js';

export const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';

export async function fetchPage(ctx: FeedsContext, url: string): Promise<FetchResponse> {
  return ctx.fetcher.fetch(url, { ...FETCH_LIMITS.page, accept: HTML_ACCEPT });
}

function mediaType(res: FetchResponse): string {
  return (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function isHtml(type: string): boolean {
  return type === 'text/html' || type === 'application/xhtml+xml' || type === '';
}

function charsetOf(res: FetchResponse): BufferEncoding {
  const match = /charset=([^;]+)/i.exec(res.headers['content-type'] ?? '');
  const name = match?.[1]?.trim().toLowerCase().replace(/^"|"$/g, '');
  return name === 'iso-8859-1' || name === 'latin1' || name === 'windows-1252' ? 'latin1' : 'utf8';
}

function absolute(href: string | null | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export interface PageInfo {
  title: string;
  siteName: string;
  audio: { url: string; mimeType: string } | null;
}

/** Title, site name and podcast audio of a fetched page (an audio file is itself an episode). */
export function readPageInfo(res: FetchResponse): PageInfo {
  const type = mediaType(res);
  if (type.startsWith('audio/')) {
    const name = decodeURIComponent(new URL(res.url).pathname.split('/').pop() ?? '');
    return { title: clip(name, 300), siteName: '', audio: { url: res.url, mimeType: type } };
  }
  if (!isHtml(type)) return { title: '', siteName: '', audio: null };
  const { document } = parseHTML(res.body.toString(charsetOf(res)));
  const meta = (name: string) =>
    document.querySelector(`meta[property="${name}"], meta[name="${name}"]`)?.getAttribute('content') ?? '';
  const title = meta('og:title') || document.querySelector('title')?.textContent || '';
  let audio: PageInfo['audio'] = null;
  const ogAudio = absolute(meta('og:audio:secure_url') || meta('og:audio:url') || meta('og:audio'), res.url);
  if (ogAudio) audio = { url: ogAudio, mimeType: meta('og:audio:type') || 'audio/mpeg' };
  if (!audio) {
    const enclosure = document.querySelector('link[rel~="enclosure"][type^="audio/"]');
    const href = absolute(enclosure?.getAttribute('href'), res.url);
    if (href) audio = { url: href, mimeType: enclosure!.getAttribute('type')! };
  }
  if (!audio) {
    const source = document.querySelector('audio[src], audio source[src]');
    const src = absolute(source?.getAttribute('src'), res.url);
    if (src) audio = { url: src, mimeType: source?.getAttribute('type') || 'audio/mpeg' };
  }
  return { title: clip(title, 300), siteName: clip(meta('og:site_name'), 200), audio };
}

export interface Article {
  url: string;
  title: string;
  contentHtml: string;
  excerpt: string;
}

/** The readable article of a fetched HTML page, sanitised; null when there is none. */
export function extractArticle(res: FetchResponse): Article | null {
  if (!isHtml(mediaType(res))) return null;
  const { document } = parseHTML(res.body.toString(charsetOf(res)));
  const parsed = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  if (!parsed || !parsed.content) return null;
  const contentHtml = sanitizeHtmlFragment(parsed.content, { baseUrl: res.url });
  if (contentHtml.trim() === '') return null;
  return {
    url: res.url,
    title: clip(parsed.title ?? '', 300),
    contentHtml,
    excerpt: clip(parsed.excerpt ?? '', 500),
  };
}

/** The bus answer for `feeds.article.extract`: fetch, then extract; failures are `found: false`. */
export async function extractArticleAt(
  ctx: FeedsContext,
  url: string,
): Promise<
  | { found: true; url: string; title: string; contentHtml: string; excerpt: string }
  | { found: false; reason: string }
> {
  let res: FetchResponse;
  try {
    res = await fetchPage(ctx, url);
  } catch (err) {
    if (err instanceof FetchError) return { found: false, reason: err.message };
    throw err;
  }
  if (res.status < 200 || res.status > 299)
    return { found: false, reason: `the page answered ${res.status}` };
  const article = extractArticle(res);
  return article ? { found: true, ...article } : { found: false, reason: 'no readable article on the page' };
}
