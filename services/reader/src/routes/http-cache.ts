// Headers every reader response carries (docs/api/reader.md "Conventions"): `Date` from the reader's clock (the
// one stamping `created_at`, because clients send `Date` back as `since`), an `ETag` on every GET with
// If-None-Match → 304, and If-Modified-Since against a route's `Last-Modified`.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatHttpDate } from '@murmur/core';
import type { ReaderClock } from '../domain/clock.js';

function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** RFC 9110 §13.1.2: weak comparison over a list, or `*`. */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

export function registerHttpCaching(scope: FastifyInstance, clock: ReaderClock): void {
  scope.addHook('onSend', async (request, reply, payload) => {
    reply.header('date', formatHttpDate(clock.dateHeaderMicros()));
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (!isRead || reply.statusCode !== 200) return payload;
    const body =
      typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : payload === null ? '' : null;
    if (body === null) return payload;
    const existing = reply.getHeader('etag');
    const etag = typeof existing === 'string' ? existing : etagOf(body);
    reply.header('etag', etag);

    const ifNoneMatch = request.headers['if-none-match'];
    let notModified = false;
    if (ifNoneMatch !== undefined) {
      notModified = matchesIfNoneMatch(ifNoneMatch, etag);
    } else {
      // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3).
      const since = Date.parse(request.headers['if-modified-since'] ?? '');
      const modified = Date.parse(String(reply.getHeader('last-modified') ?? ''));
      notModified = Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
    }
    if (!notModified) return payload;
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return '';
  });
}

/**
 * `Last-Modified` of a list whose newest change happened at `changedAt`. HTTP dates have whole
 * seconds, so a change in the current second is not announced: another change may still follow in
 * that same second, and a client sending this value back would then wrongly get a 304. Once the
 * second is over the header is sent (and only then can If-Modified-Since answer 304).
 */
export function setLastModified(reply: FastifyReply, changedAt: Date, clock: ReaderClock): void {
  const second = Math.floor(changedAt.getTime() / 1000);
  if (second >= Math.floor(clock.nowDate().getTime() / 1000)) return;
  reply.header('last-modified', formatHttpDate(new Date(second * 1000)));
}
