// OPML import (a job subscribes each feed; the import reports per-item status) and export.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound, unsupportedMediaType } from '@murmur/core';
import { defineRoute } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { exportOpml, importJson, startImport, userImport, userImports } from '../domain/imports.js';
import { followScope, readScope } from './access.js';
import { setLastModified } from './http-cache.js';
import { pathId } from './params.js';
import { importSchema } from '../shapes.js';

const OPML_BODY_LIMIT = 5 * 1024 * 1024;
const XML_TYPES = ['text/xml', 'application/xml'];

export function registerImportRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/v2/imports.json',
    ...followScope,
    xml: true,
    bodyLimit: OPML_BODY_LIMIT,
    timeoutMs: 60_000,
    rateLimit: {
      key: 'user',
      name: 'reader-import',
      max: ctx.config.READER_IMPORT_LIMIT_PER_HOUR,
      windowMs: 3_600_000,
    },
    response: { 200: importSchema },
    handler: async ({ auth, request }) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!XML_TYPES.includes(type) || typeof request.body !== 'string') {
        throw unsupportedMediaType('The import takes an OPML document (text/xml).');
      }
      return importJson(await startImport(ctx, auth.userId, request.body));
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/imports.json',
    ...readScope,
    response: { 200: z.array(importSchema) },
    handler: async ({ auth }) => (await userImports(ctx, auth.userId)).map(importJson),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/imports/:id.json',
    digitParams: ['id'],
    ...readScope,
    params: pathId,
    response: { 200: importSchema },
    handler: async ({ params, auth }) => {
      const doc = await userImport(ctx, auth.userId, params.id);
      if (!doc) throw notFound();
      return importJson(doc);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/subscriptions.xml',
    ...readScope,
    handler: async ({ auth, reply }) => {
      const { opml, changedAt } = await exportOpml(ctx, auth.userId, auth.username);
      setLastModified(reply, changedAt, ctx.clock);
      return reply.type('text/xml; charset=utf-8').send(opml);
    },
  });
}
