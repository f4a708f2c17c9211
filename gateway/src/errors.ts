// Errors the gateway answers itself (unknown path, service absent or failing, body too large,
// rate limited) are rendered in the convention of the area the path belongs to (docs/platform.md, errors), so a
// client sees one shape per area whether the service or the gateway refused the request.
import { badGateway, gatewayTimeout, serviceUnavailable, type AppError } from '@murmur/core';
import { renderError, type RenderedError } from '@murmur/http';
import type { FastifyReply } from 'fastify';
import type { ErrorStyle, ServiceName } from './routes.js';

const UPSTREAM_FAILURES = new Set([502, 503, 504]);

export function renderGatewayError(style: ErrorStyle, err: AppError, requestId: string): RenderedError {
  if (style === 'simple' || style === 'oauth') return renderError(style, err, requestId);
  // The simple rendering applies the platform's rules (status range, hidden 5xx text); reuse its text.
  const simple = renderError('simple', err, requestId);
  const message = (JSON.parse(simple.body) as { error: string }).error;
  if (style === 'text') {
    return {
      ...simple,
      headers: { ...simple.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: message,
    };
  }
  // Feedbin bodies carry the reason phrase as `message`; for a failing upstream that would not say
  // which service is missing, so the gateway's own text goes there instead.
  if (!UPSTREAM_FAILURES.has(simple.status)) return renderError('feedbin', err, requestId);
  return { ...simple, body: JSON.stringify({ status: simple.status, message, errors: [] }) };
}

export function sendGatewayError(reply: FastifyReply, style: ErrorStyle, err: AppError): FastifyReply {
  const { status, headers, body } = renderGatewayError(style, err, reply.request.id);
  return reply.code(status).headers(headers).send(body);
}

export const serviceAbsent = (service: ServiceName) =>
  serviceUnavailable(`The ${service} service is not running in this deployment.`);
export const serviceUnreachable = (service: ServiceName) =>
  badGateway(`The ${service} service is not reachable.`);
export const serviceTimedOut = (service: ServiceName) =>
  gatewayTimeout(`The ${service} service did not answer in time.`);
