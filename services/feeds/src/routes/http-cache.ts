// Caching headers of every feed (docs/api/feeds.md "Conventions"): an ETag and a Last-Modified on each
// GET, 304 on a matching If-None-Match (or, without one, an If-Modified-Since not older than the
// feed), and the Cache-Control of public or private feeds. Validators come before the body, so a
// conditional GET that matches never builds the feed.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatHttpDate } from '@murmur/core';
import type { FeedsContext } from '../domain/context.js';
import type { FeedView } from '../domain/views.js';
import type { JsonFeed } from '../shapes.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Public feeds are cached by anyone for a minute. */
export function publicFeedHeaders(reply: FastifyReply): void {
  reply.header('cache-control', 'public, max-age=60');
}

/**
 * Private queue feeds live at secret URLs: never cached by shared caches, never sent on as a
 * Referer, never indexed. Set before the token is checked, so a refusal looks the same.
 */
export function privateFeedHeaders(reply: FastifyReply): void {
  reply.header('cache-control', 'private, max-age=0');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-robots-tag', 'noindex');
}

/** RFC 9110 §13.1.2: weak comparison over a list, or `*`. */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

function hashOf(body: JsonFeed): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 32);
}

/**
 * Sets the validators and answers: the feed, or undefined after setting 304. Every answer carries
 * Last-Modified, so a reader that sends back only If-Modified-Since gets its 304s. HTTP dates have
 * whole seconds: while the second of the last change is not over, another change may still come in
 * it, and a client sending that second back later would wrongly get a 304. So during that second the
 * second before it is announced (a client sending it back gets the feed again), and the change's own
 * second only once it is over.
 */
export async function answerFeed(
  request: FastifyRequest,
  reply: FastifyReply,
  view: FeedView,
  ctx: Pick<FeedsContext, 'clock' | 'startedAt'>,
): Promise<JsonFeed | undefined> {
  let body: JsonFeed | undefined;
  let tag = view.validator;
  if (tag === undefined) {
    body = await view.build();
    tag = hashOf(body);
  }
  const etag = `"${tag}"`;
  reply.header('etag', etag);
  // A feed that never changed (nothing in it yet) dates from this process's start.
  const changedAtMs = view.changedAtMs > 0 ? view.changedAtMs : ctx.startedAt.getTime();
  const changedSecond = Math.floor(changedAtMs / 1000);
  const announcedSecond = Math.min(changedSecond, Math.floor(ctx.clock.now().getTime() / 1000) - 1);
  reply.header('last-modified', formatHttpDate(new Date(announcedSecond * 1000)));

  const ifNoneMatch = request.headers['if-none-match'];
  let notModified = false;
  if (ifNoneMatch !== undefined) notModified = matchesIfNoneMatch(ifNoneMatch, etag);
  else {
    const since = Date.parse(request.headers['if-modified-since'] ?? '');
    notModified = Number.isFinite(since) && changedSecond * 1000 <= since;
  }
  if (notModified) {
    reply.code(304);
    return undefined;
  }
  reply.header('content-type', JSON_TYPE);
  return body ?? (await view.build());
}
