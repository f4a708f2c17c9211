// The Micropub endpoint and its media endpoint (docs/api/publishing.md, "Micropub"; the W3C Micropub
// Recommendation). Authentication is the platform's (Bearer header or `access_token` parameter, IndieAuth
// and app tokens); the scope each request needs is known only once its body is read (`action`), so it
// is checked here: `create` (or `draft`, which makes drafts only), `update`, `delete`, `media`. As the
// Recommendation says (3.8), a token without the needed scope is 401 insufficient_scope. Errors are
// `{error, error_description}` (the app's OAuth style for these routes).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest, payloadTooLarge } from '@murmur/core';
import {
  bearerToken,
  busHeaders,
  hasScope,
  InsufficientScopeError,
  mediaType,
  type AuthInfo,
  defineRoute,
  type ParamRecord,
} from '@murmur/http';
import { MAX_DECODED_MEDIA_BYTES } from '../config.js';
import type { Caller, PublishingContext } from '../domain/context.js';
import {
  categoriesFor,
  configOf,
  createFromMicropub,
  createFromForm,
  createFromJson,
  deleteFromMicropub,
  invalid,
  lastMediaUrl,
  pickProperties,
  recentSources,
  sourceAt,
  undeleteFromMicropub,
  updateFromMicropub,
  uploadToMediaEndpoint,
  type MicropubFile,
} from '../domain/micropub.js';
import { parseMultipart } from './micropub-multipart.js';

/** JSON and form bodies: a post of 512 KiB escaped at worst, with its properties around it. */
export const MICROPUB_SMALL_BODY_LIMIT = 4 * 1024 * 1024;
/**
 * Multipart bodies: the largest media file any configuration allows with the form around it (fixed, so
 * the gateway's route table knows it; each file is held to MEDIA_MAX_BYTES, 413 beyond).
 */
export const MICROPUB_BODY_LIMIT = MAX_DECODED_MEDIA_BYTES + 1024 * 1024;
/** Posts listed by a `q=source` without `url`, at most. */
export const MAX_SOURCE_ITEMS = 100;

/** The token lacks `scope`: 401, as the Micropub Recommendation (3.8) and micropub.rocks 804 have it. */
class MicropubScopeError extends InsufficientScopeError {
  constructor(scope: string) {
    super(scope);
    Object.defineProperty(this, 'status', { value: 401 });
  }
}

function need(auth: AuthInfo, scope: string): void {
  if (!hasScope(auth, scope)) throw new MicropubScopeError(scope);
}

const callerOf = (auth: AuthInfo): Caller => ({ userId: auth.userId, username: auth.username });

// The files of a multipart body, beside its parameters (which the platform merges like a form's).
const filesOf = new WeakMap<object, MicropubFile[]>();

function text(params: ParamRecord, name: string): string | undefined {
  const v = params[name];
  const last = Array.isArray(v) ? v[v.length - 1] : v;
  return typeof last === 'string' ? last : undefined;
}

function listParam(params: ParamRecord, name: string): string[] | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is string => typeof x === 'string');
}

/** RFC 6750 §2: a token in the header and in the body is one too many (micropub.rocks 805). */
function refuseTwoTokens(request: FastifyRequest, input: ParamRecord): void {
  if (bearerToken(request.headers.authorization) !== undefined && input.access_token !== undefined)
    throw invalid('access_token', 'send the token in the Authorization header or the body, not both');
}

export function registerMicropubRoutes(scope: FastifyInstance, ctx: PublishingContext): void {
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      const parsed = parseMultipart(body as Buffer, request.headers['content-type'] ?? '');
      filesOf.set(parsed.params, parsed.files);
      done(null, parsed.params);
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  // Only a multipart body may be large: a JSON or form body over its limit is refused before it is read.
  scope.addHook('preParsing', async (request, _reply, payload) => {
    const length = Number(request.headers['content-length']);
    if (
      mediaType(request.headers['content-type']) !== 'multipart/form-data' &&
      length > MICROPUB_SMALL_BODY_LIMIT
    )
      throw payloadTooLarge();
    return payload;
  });

  const common = {
    auth: 'required',
    tokenParam: true,
    errorStyle: 'oauth',
    bodyLimit: MICROPUB_BODY_LIMIT,
    rateLimit: { key: 'user', max: ctx.config.MICROPUB_REQUESTS_PER_MINUTE, windowMs: 60_000 },
  } as const;

  defineRoute(scope, {
    ...common,
    method: 'GET',
    url: '/micropub',
    handler: async ({ auth, input, request }) => {
      const caller = callerOf(auth);
      // Without q, the configuration: clients check their token with a bare GET (micropub-helper's
      // verifyToken) and expect 200.
      const q = text(input, 'q') ?? 'config';
      switch (q) {
        case 'config':
          return configOf(ctx);
        case 'syndicate-to':
          return { 'syndicate-to': [] };
        case 'category':
          return { categories: await categoriesFor(ctx, caller, text(input, 'filter'), busHeaders(request)) };
        case 'source': {
          const wanted = listParam(input, 'properties');
          const url = text(input, 'url');
          if (url === undefined) {
            const limitText = text(input, 'limit') ?? '10';
            const limit = Number(limitText);
            if (!/^\d{1,4}$/.test(limitText) || limit < 1)
              throw invalid('limit', 'must be a positive integer');
            const items = await recentSources(
              ctx,
              caller,
              Math.min(limit, MAX_SOURCE_ITEMS),
              busHeaders(request),
            );
            return {
              items: items.map((item) =>
                wanted ? { properties: pickProperties(item.properties, wanted) } : item,
              ),
            };
          }
          const properties = await sourceAt(ctx, caller, url);
          if (wanted) return { properties: pickProperties(properties, wanted) };
          return { type: ['h-entry'], properties };
        }
        default:
          throw invalid('q', `unknown query "${q.slice(0, 40)}"`);
      }
    },
  });

  defineRoute(scope, {
    ...common,
    method: 'POST',
    url: '/micropub',
    handler: async ({ auth, input, request, reply }) => {
      refuseTwoTokens(request, input);
      const caller = callerOf(auth);
      const headers = busHeaders(request);
      const isJson = mediaType(request.headers['content-type']) === 'application/json';
      const body = request.body;
      if (isJson && (body === null || typeof body !== 'object' || Array.isArray(body)))
        throw badRequest('The JSON body must be an object.');
      const action = text(input, 'action');
      if (action !== undefined) {
        switch (action) {
          case 'update': {
            need(auth, 'update');
            if (!isJson) throw invalid('action', 'updates are sent as JSON');
            const json = body as Record<string, unknown>;
            const { before, after } = await updateFromMicropub(
              ctx,
              caller,
              { url: json.url, replace: json.replace, add: json.add, delete: json.delete },
              headers,
            );
            if (after !== before) return reply.code(201).header('location', after).send();
            return reply.code(204).send();
          }
          case 'delete':
            need(auth, 'delete');
            await deleteFromMicropub(ctx, caller, input.url, headers);
            return reply.code(204).send();
          case 'undelete':
            need(auth, 'delete');
            await undeleteFromMicropub(ctx, caller, input.url, headers);
            return reply.code(204).send();
          default:
            throw invalid('action', `unknown action "${action.slice(0, 40)}" (update, delete or undelete)`);
        }
      }
      const draftOnly = !hasScope(auth, 'create') && hasScope(auth, 'draft');
      if (!draftOnly) need(auth, 'create');
      const create = isJson
        ? createFromJson(body as Record<string, unknown>)
        : createFromForm(input, filesOf.get(body as object) ?? []);
      const url = await createFromMicropub(ctx, caller, create, { draftOnly, headers });
      return reply.code(201).header('location', url).send();
    },
  });

  defineRoute(scope, {
    ...common,
    method: 'POST',
    url: '/micropub/media',
    handler: async ({ auth, input, request, reply }) => {
      refuseTwoTokens(request, input);
      need(auth, 'media');
      if (mediaType(request.headers['content-type']) !== 'multipart/form-data')
        throw new AppError(
          415,
          'invalid_request',
          'Send the file as multipart/form-data in a part named file.',
        );
      const files = filesOf.get(request.body as object) ?? [];
      const file = files.find((f) => f.field === 'file');
      if (!file) throw invalid('file', 'is required (a multipart part named file)');
      const url = await uploadToMediaEndpoint(ctx, callerOf(auth), file, busHeaders(request));
      return reply.code(201).header('location', url).send({ url });
    },
  });

  defineRoute(scope, {
    ...common,
    method: 'GET',
    url: '/micropub/media',
    handler: async ({ auth, input }) => {
      const q = text(input, 'q');
      if (q !== 'last') throw invalid('q', 'the media endpoint answers q=last');
      const url = await lastMediaUrl(ctx, callerOf(auth));
      return url ? { url } : {};
    },
  });
}
