// GET /media/{site}/{yyyy}/{file}: uploaded media, served with their stored type and headers that keep a
// browser from running them (nosniff, a sandboxing CSP). Names are unguessable and never reused, so
// responses may be cached for a year.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '@murmur/core';
import { defineRoute } from '@murmur/http';
import type { PublishingContext } from '../domain/context.js';

const params = z.object({
  site: z.string().regex(/^\d{1,10}$/),
  year: z.string().regex(/^\d{4}$/),
  file: z.string().regex(/^(?!\.+$)[A-Za-z0-9._-]{1,160}$/),
});

export const MEDIA_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'public, max-age=31536000, immutable',
} as const;

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*');
}

export function registerMediaRoutes(scope: FastifyInstance, ctx: PublishingContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/media/:site/:year/:file',
    params,
    rateLimit: { max: ctx.config.PUBLIC_GETS_PER_MINUTE, timeWindow: 60_000 },
    handler: async ({ params: p, request, reply }) => {
      const blob = await ctx.blobs.get(`${p.site}/${p.year}/${p.file}`);
      if (!blob) throw notFound();
      reply.headers({ ...MEDIA_HEADERS, etag: blob.etag, 'last-modified': blob.createdAt.toUTCString() });
      if (etagMatches(request.headers['if-none-match'], blob.etag)) return reply.code(304).send();
      return reply
        .headers({ 'content-type': blob.contentType, 'content-length': String(blob.size) })
        .send(blob.stream());
    },
  });
}
