// POST /xmlrpc: the transport of publishing.md. Every method outcome, failures included, is HTTP 200 with a
// <methodResponse>; only transport problems (method, content type, size, rate) are HTTP errors, sent as
// one line of text/plain like the gateway's for this route.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  busHeaders,
  defineRoute,
  renderError,
  toAppError,
  unsupportedMediaType,
} from '@murmur/platform';
import type { PublishingContext } from '../domain/context.js';
import { decodeMethodCall } from '../xmlrpc/decode.js';
import { encodeFault, encodeResponse } from '../xmlrpc/encode.js';
import { dispatch } from '../xmlrpc/methods.js';
import { XmlRpcFault } from '../xmlrpc/values.js';

/** 25 MB of media in base64 plus the XML around it (security.md §4). */
export const XMLRPC_BODY_LIMIT = 36 * 1024 * 1024;
export const XMLRPC_TIMEOUT_MS = 120_000;

const XML_TYPES = new Set(['text/xml', 'application/xml']);

/** `text/xml; charset=utf-8` → `text/xml` (parameters such as charset are ignored). */
function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

const FAULT_STATUSES = new Set([401, 403, 404, 413]);

/** A method's failure as a fault; 429 stays an HTTP error (thrown on). */
function faultOf(err: unknown, log: FastifyBaseLogger): XmlRpcFault {
  if (err instanceof XmlRpcFault) return err;
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
  if (appError.status >= 500) request.log.error({ err }, 'request failed');
  const rendered = renderError('simple', appError, request.id);
  const message = (JSON.parse(rendered.body) as { error: string }).error;
  // The client may still be sending a body we will not read.
  if (rendered.status === 413) reply.header('connection', 'close');
  return reply
    .code(rendered.status)
    .headers({ ...rendered.headers, 'content-type': 'text/plain; charset=utf-8' })
    .send(`${message}\n`);
}

export async function registerXmlRpcRoutes(app: FastifyInstance, ctx: PublishingContext): Promise<void> {
  await app.register(async (scope) => {
    scope.setErrorHandler((err, request, reply) => sendText(request, reply, err));

    // Before the body is read: a wrong type is refused without buffering 36 MiB of it.
    scope.addHook('onRequest', async (request) => {
      if (request.method !== 'POST') {
        throw new AppError(405, 'method_not_allowed', 'Method not allowed: use POST.', {
          headers: { Allow: 'POST' },
        });
      }
      if (!XML_TYPES.has(mediaTypeOf(request.headers['content-type'])))
        throw unsupportedMediaType('Content-Type must be text/xml or application/xml.');
    });

    defineRoute(scope, {
      method: 'POST',
      url: '/xmlrpc',
      xml: true,
      bodyLimit: XMLRPC_BODY_LIMIT,
      timeoutMs: XMLRPC_TIMEOUT_MS,
      handler: async ({ request, reply }) => {
        const xml = typeof request.body === 'string' ? request.body : '';
        let body: string;
        try {
          const call = decodeMethodCall(xml);
          request.log.debug({ method: call.methodName }, 'xml-rpc call');
          const result = await dispatch(call, { ctx, clientIp: request.ip, headers: busHeaders(request) });
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
      handler: async () => undefined,
    });
  });
}
