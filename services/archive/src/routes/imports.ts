// Imports (docs/api/archive.md "Importing"): POST …/import and GET …/import/{id}, for the site's owner
// (a Bearer token, verified by the platform's Authenticator) or the operator (`murmur archive import`,
// Bearer $MURMUR_ADMIN_TOKEN). This group has its own scope for two reasons: that choice of
// credentials, made in onRequest before anything else; and its body handling — instead of the
// platform's parsers, the body of an accepted media type is streamed into the blob store as it
// arrives (up to 100 MiB), never buffered. Everything that can refuse the upload — credentials
// (401), media type (415), declared length (413), ownership (404), a running import (409) — is
// checked before a byte of it is read.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { badRequest, notFound, payloadTooLarge, unsupportedMediaType } from '@murmur/core';
import { authenticatorOf, busHeaders, carriesAdminToken, defineRoute, mediaType, zParam } from '@murmur/http';
import type { ArchiveContext } from '../domain/context.js';
import type { Caller } from '../domain/sites.js';
import {
  abandonUpload,
  beginImport,
  IMPORT_MEDIA_TYPES,
  importStatus,
  NO_BODY,
  queueImport,
  receiveUpload,
} from '../domain/imports.js';
import type { ImportDoc } from '../store/index.js';
import { importAcceptedSchema, importSchema } from '../shapes.js';

const UNSUPPORTED =
  'Import a JSON Feed (application/json), a blog-archive ZIP (application/zip) or a WordPress export (text/xml).';

export function registerImportRoutes(scope: FastifyInstance, ctx: ArchiveContext): void {
  const maxBytes = ctx.config.ARCHIVE_IMPORT_MAX_BYTES;
  const callers = new WeakMap<FastifyRequest, Caller>();
  const callerOf = (request: FastifyRequest): Caller => {
    const caller = callers.get(request);
    if (!caller) throw authenticatorOf(scope).missingToken();
    return caller;
  };
  const claimed = new WeakMap<FastifyRequest, ImportDoc>();
  const received = new WeakSet<FastifyRequest>();

  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(Object.keys(IMPORT_MEDIA_TYPES), (request, payload, done) => {
    const imp = claimed.get(request);
    if (!imp) {
      // A body where none is read (GET of an import's status): drained, ignored.
      (payload as Readable).resume();
      return done(null, undefined);
    }
    receiveUpload(ctx, imp, payload as Readable, mediaType(request.headers['content-type'])).then(
      () => {
        received.add(request);
        done(null, undefined);
      },
      (err: Error) => done(err, undefined),
    );
  });

  scope.addHook('onRequest', async (request) => {
    if (carriesAdminToken(request.headers.authorization, ctx.config.MURMUR_ADMIN_TOKEN)) {
      callers.set(request, { operator: true });
      return;
    }
    const auth = await authenticatorOf(scope).fromHeader(request);
    if (!auth) throw authenticatorOf(scope).missingToken();
    callers.set(request, { userId: auth.userId });
  });

  // Runs after authentication (onRequest) and before the body is read.
  scope.addHook('preParsing', async (request, _reply, payload) => {
    const caller = callers.get(request);
    const siteText = (request.params as { site_id?: string }).site_id ?? '';
    if (request.method !== 'POST' || !caller) return payload;
    const kind = IMPORT_MEDIA_TYPES[mediaType(request.headers['content-type'])];
    if (!kind) throw unsupportedMediaType(UNSUPPORTED);
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxBytes) throw payloadTooLarge(`The import is larger than ${maxBytes} bytes.`);
    if (!/^[1-9]\d{0,14}$/.test(siteText)) throw notFound('Not found.');
    const imp = await beginImport(ctx, {
      siteId: Number(siteText),
      caller,
      kind,
      headers: busHeaders(request),
    });
    claimed.set(request, imp);
    return payload;
  });

  // However the request ended — refused, cut off, too large — an upload that was not queued frees its site.
  const release = async (request: FastifyRequest) => {
    const imp = claimed.get(request);
    if (imp) await abandonUpload(ctx, imp, 'The upload did not complete.');
  };
  scope.addHook('onResponse', release);
  scope.addHook('onRequestAbort', release);

  defineRoute(scope, {
    method: 'POST',
    url: '/imported/archive/:site_id/import',
    digitParams: ['site_id'],
    params: z.object({ site_id: zParam.id() }),
    xml: true,
    bodyLimit: maxBytes,
    timeoutMs: 300_000,
    response: { 202: importAcceptedSchema },
    handler: async ({ request, reply }) => {
      const imp = claimed.get(request);
      if (!imp || !received.has(request)) throw badRequest(NO_BODY);
      reply.code(202);
      return queueImport(ctx, imp);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/imported/archive/:site_id/import/:id',
    digitParams: ['site_id'],
    params: z.object({ site_id: zParam.id(), id: z.string() }),
    response: { 200: importSchema },
    handler: ({ params, request }) => importStatus(ctx, params.site_id, callerOf(request), params.id),
  });
}
