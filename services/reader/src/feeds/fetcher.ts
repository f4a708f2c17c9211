// Every outbound request of the reader: the platform's safe fetcher (SSRF guard, time and size caps)
// plus politeness: at most N requests in flight per host from this process, so a site with many
// subscribed feeds is not hammered (docs/platform.md "fetch" for the guard and caps).
import { type ConcurrencyLimit } from '@murmur/core';
import { FETCH_LIMITS, type FetchLimits, type FetchResponse, type SafeFetcher } from '@murmur/fetch';
import { httpUrl } from './html.js';

export const FEED_ACCEPT =
  'application/feed+json, application/atom+xml, application/rss+xml, application/rdf+xml;q=0.9, ' +
  'application/json;q=0.8, application/xml;q=0.8, text/xml;q=0.8, text/html;q=0.7, */*;q=0.5';

/**
 * Where a feed now lives when every hop of the fetch was a permanent redirect (301/308), whatever the
 * final status (a 304 at the new URL included); null otherwise or when that URL is not http(s).
 */
export function permanentLocation(res: Pick<FetchResponse, 'permanentRedirect' | 'url'>): string | null {
  return res.permanentRedirect ? httpUrl(res.url) : null;
}

export interface FeedRequest {
  limits?: FetchLimits;
  accept?: string;
  etag?: string | null;
  lastModified?: string | null;
  /** GET unless said (a WebSub hub request is a form POST). */
  method?: 'GET' | 'POST';
  body?: string;
  contentType?: string;
}

export class FeedFetcher {
  constructor(
    private readonly safe: SafeFetcher,
    /** Requests in flight per host (READER_FETCH_PER_HOST), keyed by host. */
    private readonly limiter: ConcurrencyLimit,
  ) {}

  fetch(url: string, request: FeedRequest = {}): Promise<FetchResponse> {
    let host: string;
    try {
      host = new URL(url).host.toLowerCase();
    } catch {
      host = '';
    }
    const headers: Record<string, string> = {};
    if (request.etag) headers['if-none-match'] = request.etag;
    if (request.lastModified) headers['if-modified-since'] = request.lastModified;
    if (request.contentType) headers['content-type'] = request.contentType;
    return this.limiter.run(
      () =>
        this.safe.fetch(url, {
          ...(request.limits ?? FETCH_LIMITS.feed),
          accept: request.accept ?? FEED_ACCEPT,
          headers,
          ...(request.method ? { method: request.method } : {}),
          ...(request.body === undefined ? {} : { body: request.body }),
        }),
      host,
    );
  }

  close(): Promise<void> {
    return this.safe.close();
  }
}
