// POST /xmlrpc (docs/api/publishing.md): every method outcome, failures included, is HTTP 200 with a
// <methodResponse>; only transport problems (method, content type, size, rate, too many large uploads)
// are HTTP errors, sent as one line of text/plain like the gateway's for this route.
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, unsupportedMediaType } from '@murmur/core';
import {
  authenticatorOf,
  busFailure,
  busHeaders,
  defineRoute,
  mediaType,
  renderError,
  toAppError,
} from '@murmur/http';
import type { PublishingContext } from '../domain/context.js';
import { login } from '../xmlrpc/call.js';
import { encodeFault, encodeResponse } from '../xmlrpc/encode.js';
import { dispatch, isMediaUpload, loginPositions } from '../xmlrpc/methods.js';
import { LargeBodySlots, readCall, type BodyLimits, type ReadOutcome } from '../xmlrpc/read-call.js';
import { FAULT, XmlRpcFault } from '../xmlrpc/values.js';

/** 25 MB of media in base64 plus the XML around it (docs/api/publishing.md, "Limits"). */
export const XMLRPC_BODY_LIMIT = 36 * 1024 * 1024;
/**
 * Every call but a media upload: the longest post body (512 KiB of UTF-8) escaped at worst (`&quot;`,
 * six bytes a character), with the rest of the call around it.
 */
export const XMLRPC_SMALL_BODY_LIMIT = 4 * 1024 * 1024;
/** Bodies over this size take one of LARGE_BODY_SLOTS while they are read. */
export const XMLRPC_LARGE_BODY = 1024 * 1024;
export const LARGE_BODY_SLOTS = 2;
export const XMLRPC_TIMEOUT_MS = 120_000;

const XML_TYPES = ['text/xml', 'application/xml'];
/**
 * Bodies read as XML though not labelled so: no Content-Type, a form's or plain text's. XML-RPC
 * clients are not all careful with the header, and WordPress reads any body as the call; one labelled
 * as another kind of document (JSON, multipart) is still refused.
 */
const READ_AS_XML = new Set(['', ...XML_TYPES, 'application/x-www-form-urlencoded', 'text/plain']);

/** Refusals sent as faults (docs/api/publishing.md, "Faults"); 429 stays an HTTP error (thrown on). */
const FAULT_STATUSES = new Set([401, 403, 404, 413, 503, 504]);

function faultOf(err: unknown, log: FastifyBaseLogger): XmlRpcFault {
  if (err instanceof XmlRpcFault) return err;
  // Identity (or another service) not answering: the call may be retried shortly.
  const unavailable = busFailure(err);
  if (unavailable) return new XmlRpcFault(unavailable.status, unavailable.message);
  if (err instanceof AppError) {
    if (err.status === 429) throw err;
    if (err.status === 400) return new XmlRpcFault(-32602, err.message);
    if (FAULT_STATUSES.has(err.status)) return new XmlRpcFault(err.status, err.message);
  }
  log.error({ err }, 'xml-rpc method failed');
  return new XmlRpcFault(500, 'Internal error');
}

function sendText(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const appError = toAppError(err);
  if (appError.status >= 500 && appError.status !== 503) request.log.error({ err }, 'request failed');
  const rendered = renderError('simple', appError, request.id);
  const message = (JSON.parse(rendered.body) as { error: string }).error;
  // The client may still be sending a body we will not use.
  if (rendered.status === 413 || rendered.status === 503) discardRestOfBody(request);
  return reply
    .code(rendered.status)
    .headers({ ...rendered.headers, 'content-type': 'text/plain; charset=utf-8' })
    .send(`${message}\n`);
}

/**
 * Reads and drops what is left of a body we refuse, without keeping any of it: a proxy still sending it
 * (the gateway streams bodies through) would otherwise hit a closed connection and tell its client 502
 * instead of our answer. A body running past the route's limit ends the connection.
 */
function discardRestOfBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  let seen = 0;
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > XMLRPC_BODY_LIMIT) raw.destroy();
  });
  raw.resume();
}

/** A refusal of the body by its size or the number of large bodies being read: HTTP errors, not faults. */
function isTransportError(err: unknown): boolean {
  return err instanceof AppError && (err.status === 413 || err.code === 'busy');
}

export async function registerXmlRpcRoutes(app: FastifyInstance, ctx: PublishingContext): Promise<void> {
  const authenticator = authenticatorOf(app);
  const limits: BodyLimits = {
    maxBytes: XMLRPC_BODY_LIMIT,
    maxSmallBytes: XMLRPC_SMALL_BODY_LIMIT,
    largeBytes: XMLRPC_LARGE_BODY,
  };
  const largeSlots = new LargeBodySlots(LARGE_BODY_SLOTS);

  await app.register(async (scope) => {
    scope.setErrorHandler((err, request, reply) => sendText(request, reply, err));

    // Before the body is read: a wrong method or type is refused without reading any of it.
    scope.addHook('onRequest', async (request) => {
      if (request.method !== 'POST') {
        throw new AppError(405, 'method_not_allowed', 'Method not allowed: use POST.', {
          headers: { Allow: 'POST' },
        });
      }
      if (!READ_AS_XML.has(mediaType(request.headers['content-type'])))
        throw unsupportedMediaType('Content-Type must be text/xml or application/xml.');
    });

    // The body is decoded as it arrives (xmlrpc/read-call.ts) instead of buffered whole, whatever its
    // label (the hook above let only READ_AS_XML through; no label at all reaches the catch-all too).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', async (request: FastifyRequest, payload: Readable) => {
      const length = Number(request.headers['content-length']);
      return readCall(payload, {
        limits,
        declaredBytes: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
        loginOf: loginPositions,
        isMediaUpload,
        checkLogin: (name, token) =>
          login(ctx, authenticator, name, token, { ip: request.ip, headers: busHeaders(request) }),
        largeSlots,
      });
    });

    defineRoute(scope, {
      method: 'POST',
      url: '/xmlrpc',
      xml: true,
      // What sendText answers; declared for whatever routes requests here (registeredRoutes).
      errorStyle: 'text',
      // Checked against Content-Length before the body is read; read-call.ts counts the bytes too.
      bodyLimit: XMLRPC_BODY_LIMIT,
      timeoutMs: XMLRPC_TIMEOUT_MS,
      handler: async ({ request, reply }) => {
        // Fastify calls no parser for an empty body without a Content-Type: no call was sent at all.
        const read = (request.body as ReadOutcome | undefined) ?? {
          complete: true,
          error: new XmlRpcFault(FAULT.notWellFormed, 'Parse error: the request has no body'),
        };
        if (!read.complete) discardRestOfBody(request);
        // Too large, or too many large bodies at once: HTTP errors. A too-large media object is a fault.
        if (isTransportError(read.error)) throw read.error;
        let body: string;
        try {
          if (read.error !== undefined) throw read.error;
          const call = read.call!;
          request.log.debug({ method: call.methodName }, 'xml-rpc call');
          const result = await dispatch(call, {
            ctx,
            authenticator,
            clientIp: request.ip,
            headers: busHeaders(request),
            ...(read.verified ? { verified: read.verified } : {}),
          });
          body = encodeResponse(result);
        } catch (err) {
          const fault = faultOf(err, request.log);
          body = encodeFault(fault.faultCode, fault.faultString);
        }
        return reply.code(200).header('content-type', 'text/xml; charset=utf-8').send(body);
      },
    });

    // Other methods reach the onRequest hook above and get 405.
    scope.route({
      method: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      url: '/xmlrpc',
      exposeHeadRoute: false,
      config: { errorStyle: 'text' },
      handler: async () => undefined,
    });
  });
}
