// Caching and cross-origin headers of the archive's reads (docs/api/archive.md "Conventions"): every
// 200 carries the archive's ETag and `Cache-Control: public, max-age=300`; a matching If-None-Match
// answers 304 before the body is built. Archive pages on sites call these endpoints from browsers,
// so every answer (errors too) carries `Access-Control-Allow-Origin: *`; no credentials are read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { View } from '../domain/reads.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

export function corsHeaders(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
}

/** RFC 9110 §13.1.2: weak comparison over a list, or `*`. */
function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

/** Sets the validators and answers the body, or undefined after setting 304. */
export async function answer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  view: View<T>,
): Promise<T | undefined> {
  reply.header('etag', view.etag);
  reply.header('cache-control', 'public, max-age=300');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matchesIfNoneMatch(ifNoneMatch, view.etag)) {
    reply.code(304);
    return undefined;
  }
  const body = await view.build();
  reply.header('content-type', JSON_TYPE);
  return body;
}
