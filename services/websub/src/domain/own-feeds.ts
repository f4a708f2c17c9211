// Reading Murmur's own public feeds (docs/adr/0023-websub-hub.md, "Where the hub reads the feeds"):
// over HTTP from the gateway at WEBSUB_FEEDS_ORIGIN, the path of the topic below PUBLIC_URL (or, for
// a site on its own host, the topic's path with that Host), so the hub gets exactly the bytes and
// Content-Type a subscriber fetching the topic would, from whichever service serves it, in both run
// modes. The origin is the operator's, never a client's: this is no outbound fetch of a client URL,
// so it does not go through the safe fetcher (which refuses loopback and private addresses).
import { Agent, request } from 'undici';

export interface OwnFeedResponse {
  status: number;
  contentType: string;
  etag: string | undefined;
  body: Buffer;
}

export interface OwnFeeds {
  get(path: string, options: { host?: string; etag?: string }): Promise<OwnFeedResponse>;
  /** Closes the pooled connections to the gateway. */
  close?(): Promise<void>;
}

/** Largest feed document the hub distributes. */
export const MAX_FEED_BYTES = 4 * 1024 * 1024;

export function ownFeedsAt(origin: string, timeoutMs = 20_000): OwnFeeds {
  const dispatcher = new Agent({ connections: 8 });
  return {
    close: () => dispatcher.close(),
    async get(path, options) {
      const res = await request(`${origin}${path}`, {
        dispatcher,
        method: 'GET',
        headers: {
          accept: '*/*',
          'user-agent': 'Murmur-WebSub-Hub',
          ...(options.host ? { host: options.host } : {}),
          ...(options.etag ? { 'if-none-match': options.etag } : {}),
        },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_FEED_BYTES) {
          res.body.destroy();
          throw new Error(`${path} is larger than ${MAX_FEED_BYTES} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const header = (name: string) => {
        const v = res.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      return {
        status: res.statusCode,
        contentType: header('content-type') ?? 'application/octet-stream',
        etag: header('etag'),
        body: Buffer.concat(chunks),
      };
    },
  };
}
