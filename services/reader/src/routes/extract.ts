// GET /feeds/v2/extract/{entry_id}/{signature}.json: the article behind an entry's link, at the signed
// address its `extracted_content_url` gives (docs/api/reader.md "Extracted content"). No credentials:
// clients fetch it as they fetch Feedbin's extract service; the signature is the permission.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, zParam } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { extractedArticle } from '../domain/extracts.js';
import { extractSchema } from '../shapes.js';

export function registerExtractRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/extract/:id/:signature.json',
    digitParams: ['id'],
    params: z.object({ id: zParam.id(), signature: z.string().max(64) }),
    // Each miss fetches a page: per client address, counted in the store.
    rateLimit: {
      key: 'ip',
      name: 'reader-extract',
      max: ctx.config.READER_EXTRACT_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    },
    timeoutMs: 45_000,
    response: { 200: extractSchema },
    handler: ({ params }) => extractedArticle(ctx, params.id, params.signature),
  });
}
