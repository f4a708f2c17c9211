// Fetching saved pages through the platform's safe fetcher (SSRF guard, time and size limits) and
// reading them without holding the event loop (docs/security.md, "Parsing fetched documents"): a
// bookmark's title, site name and podcast audio from the platform's sliced tag scan of the page's first
// PAGE_INFO_SCAN_CHARS; a read-later article extracted with Readability over linkedom — a whole DOM,
// seconds of CPU for a large page — in the parser thread (page-tasks.ts) within ARTICLE_PARSE_TIMEOUT_MS,
// and sanitised like every third-party HTML we store.
import {
  FETCH_LIMITS,
  FetchError,
  ParseBusyError,
  ParseError,
  scanHtml,
  type FetchResponse,
} from '@murmur/fetch';
import type { FeedsContext } from './context.js';
import { clip } from './clip.js';
import type { Article, ArticlePage } from './page-tasks.js';

export type { Article } from './page-tasks.js';

/** Characters of a page read for its title, site name and audio (they are in its head and top). */
export const PAGE_INFO_SCAN_CHARS = 1024 * 1024;
/** CPU time the extraction of one article may take in the parser thread. */
export const ARTICLE_PARSE_TIMEOUT_MS = 10_000;

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

export interface PageInfo {
  title: string;
  siteName: string;
  audio: { url: string; mimeType: string } | null;
}

/** Title, site name and podcast audio of a fetched page (an audio file is itself an episode). */
export async function readPageInfo(res: FetchResponse): Promise<PageInfo> {
  const type = mediaType(res);
  if (type.startsWith('audio/')) {
    const name = decodeURIComponent(new URL(res.url).pathname.split('/').pop() ?? '');
    return { title: clip(name, 300), siteName: '', audio: { url: res.url, mimeType: type } };
  }
  if (!isHtml(type)) return { title: '', siteName: '', audio: null };
  // The first of each, in document order, as querySelector would find them.
  const metas = new Map<string, string>();
  let title: string | undefined;
  let inTitle = false;
  let enclosure: { href: string; type: string } | undefined;
  let source: { src: string; type: string } | undefined;
  let audioDepth = 0;
  await scanHtml(
    res.body.toString(charsetOf(res)),
    {
      onopentag(name, attrs) {
        if (name === 'meta') {
          for (const key of [attrs.property, attrs.name])
            if (key !== undefined && !metas.has(key)) metas.set(key, attrs.content ?? '');
        } else if (name === 'title' && title === undefined) {
          inTitle = true;
          title = '';
        } else if (name === 'link' && enclosure === undefined && attrs.href !== undefined) {
          const rels = (attrs.rel ?? '').split(/\s+/);
          if (rels.includes('enclosure') && (attrs.type ?? '').startsWith('audio/'))
            enclosure = { href: attrs.href, type: attrs.type! };
        } else if (name === 'audio') {
          audioDepth++;
          if (source === undefined && attrs.src !== undefined)
            source = { src: attrs.src, type: attrs.type ?? '' };
        } else if (name === 'source' && audioDepth > 0 && source === undefined && attrs.src !== undefined) {
          source = { src: attrs.src, type: attrs.type ?? '' };
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'audio' && audioDepth > 0) audioDepth--;
      },
    },
    { maxChars: PAGE_INFO_SCAN_CHARS },
  );
  const meta = (name: string) => metas.get(name) ?? '';
  let audio: PageInfo['audio'] = null;
  const ogAudio = absolute(meta('og:audio:secure_url') || meta('og:audio:url') || meta('og:audio'), res.url);
  if (ogAudio) audio = { url: ogAudio, mimeType: meta('og:audio:type') || 'audio/mpeg' };
  if (!audio && enclosure) {
    const href = absolute(enclosure.href, res.url);
    if (href) audio = { url: href, mimeType: enclosure.type };
  }
  if (!audio && source) {
    const src = absolute(source.src, res.url);
    if (src) audio = { url: src, mimeType: source.type || 'audio/mpeg' };
  }
  return {
    title: clip(meta('og:title') || title || '', 300),
    siteName: clip(meta('og:site_name'), 200),
    audio,
  };
}

/**
 * The readable article of a fetched HTML page, sanitised; null when there is none, or when the page
 * takes longer than ARTICLE_PARSE_TIMEOUT_MS to read (or more memory than the parser thread has).
 * Throws ParseBusyError when too many pages wait for the thread: the caller tries again later.
 */
export async function extractArticle(ctx: FeedsContext, res: FetchResponse): Promise<Article | null> {
  if (!isHtml(mediaType(res))) return null;
  const page: ArticlePage = { html: res.body.toString(charsetOf(res)), url: res.url };
  try {
    return await ctx.parser.run<Article | null>('extractArticle', page);
  } catch (err) {
    if (err instanceof ParseBusyError || !(err instanceof ParseError)) throw err;
    ctx.logger.info({ url: res.url, reason: err.message }, 'article not extracted');
    return null;
  }
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
  let article: Article | null;
  try {
    article = await extractArticle(ctx, res);
  } catch (err) {
    if (err instanceof ParseBusyError)
      return { found: false, reason: 'too many pages are being read; try again later' };
    throw err;
  }
  return article ? { found: true, ...article } : { found: false, reason: 'no readable article on the page' };
}
