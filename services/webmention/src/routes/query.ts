// GET /webmention: conversation widgets read it from browsers, so it answers cross-origin (CORS `*`,
// no credentials), is cached publicly for a minute, and carries an ETag (304 on a match). Errors are
// `{"error": "…"}`. The body is sent as text: each shape is written once in domain/mention-json.ts and
// kept rendered by ETag (domain/response-cache.ts), so a repeated GET neither reads nor serialises
// 500 mentions again.
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '@murmur/http';
import type { WebmentionContext } from '../domain/context.js';
import { etagOf, mentionsOf, parseQuery } from '../domain/query.js';

const JSON_TYPE = 'application/json; charset=utf-8';

function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

export function registerQueryRoutes(scope: FastifyInstance, ctx: WebmentionContext): void {
  // Set before anything can fail, so errors are readable cross-origin too.
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/webmention',
    crossOrigin: true,
    rateLimit: {
      key: 'ip',
      max: ctx.config.WEBMENTION_READS_PER_IP_PER_MINUTE,
      windowMs: 60_000,
      name: 'webmention-get-ip',
    },
    handler: async ({ input, request, reply }) => {
      const query = parseQuery(input as Record<string, unknown>);
      const etag = await etagOf(ctx, query);
      reply.header('etag', etag).header('cache-control', 'public, max-age=60');
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch !== undefined && matchesIfNoneMatch(ifNoneMatch, etag)) {
        reply.code(304);
        return reply.send();
      }
      let body = ctx.responses.get(etag);
      if (body === undefined) {
        body = JSON.stringify(await mentionsOf(ctx, query));
        ctx.responses.set(etag, body);
      }
      reply.header('content-type', JSON_TYPE);
      return reply.send(body);
    },
  });
}
