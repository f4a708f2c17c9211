// Reading a topic's current document: Murmur's own feeds from the gateway (own-feeds.ts), an external
// publisher's topic through the safe fetcher (docs/security.md, outbound fetches).
import { FETCH_LIMITS } from '@murmur/fetch';
import type { WebsubContext } from './context.js';
import type { Topic } from './topics.js';

export interface TopicDocument {
  status: number;
  contentType: string;
  etag: string | undefined;
  body: Buffer;
}

export async function fetchTopic(ctx: WebsubContext, topic: Topic, etag?: string): Promise<TopicDocument> {
  if (topic.own) {
    return ctx.ownFeeds.get(topic.own.path, {
      ...(topic.own.host ? { host: topic.own.host } : {}),
      ...(etag ? { etag } : {}),
    });
  }
  const res = await ctx.fetcher.fetch(topic.url, {
    ...FETCH_LIMITS.feed,
    headers: etag ? { 'if-none-match': etag } : {},
  });
  return {
    status: res.status,
    contentType: res.headers['content-type'] ?? 'application/octet-stream',
    etag: res.headers.etag,
    body: res.body,
  };
}
