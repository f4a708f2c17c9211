// Cross-origin access only for public reads: public JSON Feeds, archive reads,
// GET /webmention and /microsub. The wildcard origin is safe there because none of them reads
// cookies; credentials are never allowed. Every other route gets no CORS header at all, even if a
// service sent one.
import type { FastifyReply } from 'fastify';
import type { HttpMethod, RouteEntry } from './routes.js';

const DEFAULT_ALLOW_HEADERS = 'Content-Type, Cache-Control, If-None-Match, If-Modified-Since';
const EXPOSE_HEADERS = 'ETag, Last-Modified, Link, Retry-After, X-Request-Id';
const PREFLIGHT_MAX_AGE = '86400';

export function isPublic(entry: RouteEntry | null): entry is RouteEntry {
  return entry?.cors === 'public';
}

/** The CORS headers of a public route's answer. */
export function corsHeaders(): Record<string, string> {
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE_HEADERS };
}

export function addCorsHeaders(reply: FastifyReply): void {
  reply.headers(corsHeaders());
}

/** Answers a preflight for a public route. */
export function sendPreflight(reply: FastifyReply, entry: RouteEntry): FastifyReply {
  const listed = entry.methods.includes('*') ? ['GET', 'POST'] : entry.methods;
  const methods = [...listed.filter((m): m is HttpMethod => m !== 'HEAD' && m !== '*'), 'OPTIONS'];
  addCorsHeaders(reply);
  return reply
    .code(204)
    .header('access-control-allow-methods', methods.join(', '))
    .header('access-control-allow-headers', entry.corsAllowHeaders ?? DEFAULT_ALLOW_HEADERS)
    .header('access-control-max-age', PREFLIGHT_MAX_AGE)
    .header('content-length', '0')
    .send();
}

/** Drops CORS headers a service may have set on a route that must not be readable cross-origin. */
export function stripCorsHeaders(headers: Record<string, unknown>): void {
  for (const name of Object.keys(headers)) {
    if (name.startsWith('access-control-')) delete headers[name];
  }
}
