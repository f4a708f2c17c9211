// What a client says about itself at its client_id URL (IndieAuth "Client Information Discovery"):
// a JSON client metadata document, or an HTML page with an h-app and rel=redirect_uri links, plus
// `Link: <…>; rel="redirect_uri"` headers. Fetched through the safe fetcher with the client_id
// budget (docs/security.md) and remembered for a day, so a busy screen does not hammer the client.
// An HTML page is read with microformats-parser, a whole-tree parse, in the parser thread
// (client-page-tasks.ts) within CLIENT_PAGE_PARSE_TIMEOUT_MS: never on the event loop (docs/security.md,
// "Parsing fetched documents").
import { type Clock, type Logger } from '@murmur/core';
import { FETCH_LIMITS, FetchError, ParseError, type ParserThread, type SafeFetcher } from '@murmur/fetch';
import { isLoopbackHost, sameUrl } from './indieauth-urls.js';

export interface ClientInfo {
  /** `client_name` or the h-app's name; null when the client did not say. */
  name: string | null;
  /** An https (or data:image) logo the screen may show under its CSP; null otherwise. */
  logo: string | null;
  /** Redirect URLs the client published, absolute. */
  redirectUris: string[];
}

/** What the parser thread gets (client-page-tasks.ts): plain data only. */
export interface ClientPage {
  /** The client_id the page was fetched for. */
  clientId: string;
  /** The page's final URL: the base of relative URLs. */
  base: string;
  body: string;
}

export const NOTHING: ClientInfo = { name: null, logo: null, redirectUris: [] };
/** CPU time the microformats parse of one client page may take; a page needing more published nothing. */
export const CLIENT_PAGE_PARSE_TIMEOUT_MS = 2_000;
const SUCCESS_TTL_MS = 24 * 3_600_000;
/** A client that is down is asked again soon, not tomorrow. */
const FAILURE_TTL_MS = 60_000;
const MAX_ENTRIES = 1_000;
const MAX_NAME_LENGTH = 100;

export interface ClientInfoLoaderOptions {
  fetcher: SafeFetcher;
  /** Runs client-page-tasks.ts off the event loop. */
  parser: ParserThread;
  logger: Logger;
  clock: Clock;
}

export class ClientInfoLoader {
  private readonly cache = new Map<string, { info: ClientInfo; expiresAt: number }>();

  constructor(private readonly options: ClientInfoLoaderOptions) {}

  /** Never throws: a client whose page cannot be read simply published nothing. */
  async load(clientId: URL): Promise<ClientInfo> {
    if (isLoopbackHost(clientId.hostname)) return NOTHING;
    const key = clientId.href;
    const now = this.options.clock.nowMs();
    const hit = this.cache.get(key);
    if (hit && hit.expiresAt > now) return hit.info;
    const { info, ok } = await this.fetchInfo(clientId);
    this.remember(key, info, now + (ok ? SUCCESS_TTL_MS : FAILURE_TTL_MS));
    return info;
  }

  private async fetchInfo(clientId: URL): Promise<{ info: ClientInfo; ok: boolean }> {
    try {
      const res = await this.options.fetcher.fetch(clientId, {
        ...FETCH_LIMITS.clientId,
        accept: 'application/json, text/html;q=0.9, */*;q=0.1',
      });
      if (res.status < 200 || res.status > 299) return { info: NOTHING, ok: false };
      // What another origin says cannot speak for this client_id: whoever controls a redirect there
      // (an open redirect on the client's site, say) would otherwise publish redirect URLs for it.
      if (new URL(res.url).origin !== clientId.origin) {
        this.options.logger.info({ clientId: clientId.href }, 'client_id page redirected to another origin');
        return { info: NOTHING, ok: true };
      }
      return {
        info: await parseClientPage(
          this.options.parser,
          clientId.href,
          res.url,
          res.headers,
          res.body.toString('utf8'),
        ),
        ok: true,
      };
    } catch (err) {
      if (!(err instanceof FetchError) && !(err instanceof ParseError)) throw err;
      this.options.logger.info({ clientId: clientId.href, reason: err.message }, 'client_id page not read');
      return { info: NOTHING, ok: false };
    }
  }

  private remember(key: string, info: ClientInfo, expiresAt: number): void {
    this.cache.delete(key);
    while (this.cache.size >= MAX_ENTRIES) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
    this.cache.set(key, { info, expiresAt });
  }
}

/**
 * Reads a fetched client_id page. `finalUrl` (after redirects) is the base of relative URLs. Throws
 * ParseError when an HTML page cannot be read in time (or at all).
 */
export async function parseClientPage(
  parser: ParserThread,
  clientId: string,
  finalUrl: string,
  headers: Record<string, string>,
  body: string,
): Promise<ClientInfo> {
  const fromHeader = linkHeaderUrls(headers.link ?? '', 'redirect_uri', finalUrl);
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    return withRedirects(parseMetadataDocument(clientId, finalUrl, body), fromHeader);
  }
  if (type === 'text/html' || type === 'application/xhtml+xml' || type === '') {
    const page: ClientPage = { clientId, base: finalUrl, body };
    return withRedirects(await parser.run<ClientInfo>('readClientPage', page), fromHeader);
  }
  return { ...NOTHING, redirectUris: fromHeader };
}

function withRedirects(info: ClientInfo, more: string[]): ClientInfo {
  return { ...info, redirectUris: [...new Set([...info.redirectUris, ...more])] };
}

/** A JSON document counts only when its `client_id` is the URL it was fetched for. */
function parseMetadataDocument(clientId: string, base: string, body: string): ClientInfo {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return NOTHING;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return NOTHING;
  const meta = doc as Record<string, unknown>;
  if (typeof meta.client_id !== 'string' || !sameUrl(meta.client_id, clientId)) return NOTHING;
  const redirects = Array.isArray(meta.redirect_uris)
    ? meta.redirect_uris.filter((u): u is string => typeof u === 'string')
    : [];
  return {
    name: cleanName(meta.client_name),
    logo: displayableLogo(typeof meta.logo_uri === 'string' ? resolve(meta.logo_uri, base) : null),
    redirectUris: redirects.map((u) => resolve(u, base)).filter((u): u is string => u !== null),
  };
}

export function cleanName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.replace(/\s+/g, ' ').trim();
  return name === '' ? null : name.slice(0, MAX_NAME_LENGTH);
}

/** The screen's CSP allows https: and data: images only; anything else is not shown. */
export function displayableLogo(url: string | null): string | null {
  if (url === null) return null;
  if (url.startsWith('https://')) return url;
  if (/^data:image\/(png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(url) && url.length <= 64 * 1024)
    return url;
  return null;
}

function resolve(url: string, base: string): string | null {
  try {
    return new URL(url, base).href;
  } catch {
    return null;
  }
}

/** The URLs of `Link` header entries with relation `rel`, resolved against `base`. */
export function linkHeaderUrls(header: string, rel: string, base: string): string[] {
  const urls: string[] = [];
  // `[^<>]`, not `[^>]`: a URL never holds `<`, and a run of `<` without `>` would be rescanned from
  // each one (quadratic in the header's length).
  for (const match of header.matchAll(/<([^<>]*)>((?:\s*;\s*[^,;<]+)*)/g)) {
    const params = match[2] ?? '';
    const relParam = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (relParam?.[1] ?? relParam?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!rels.includes(rel)) continue;
    const url = resolve(match[1]!, base);
    if (url !== null) urls.push(url);
  }
  return urls;
}
