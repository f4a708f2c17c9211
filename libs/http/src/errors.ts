// The one place errors become responses (docs/architecture.md, docs/api/conventions.md, Errors). Each area has its own body
// shape; the status, headers and the rule "5xx says only `Internal error`" are the same everywhere.
import { STATUS_CODES } from 'node:http';
import {
  AppError,
  badRequest,
  internalError,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
} from '@murmur/core';
import { BusNoResponderError, BusTimeoutError } from '@murmur/bus';

/**
 * Body shapes: `simple` `{"error": msg}`, `feedbin` `{status, message, errors}`, `oauth`
 * `{error, error_description}`, `html` a small page, `text` the message as text/plain (webmention).
 */
export type ErrorStyle = 'simple' | 'feedbin' | 'oauth' | 'html' | 'text';

/** Seconds a client is asked to wait when a service behind the bus is not answering. */
export const BUS_RETRY_AFTER_SECONDS = 5;

/** `identity.token.verify` → `identity`. */
function ownerOf(subject: string): string | undefined {
  const owner = subject.split('.')[0];
  return owner === undefined || owner === '' || owner === 'evt' ? undefined : owner;
}

/**
 * A bus failure as the client should see it: no service answering → 503, no answer in time → 504,
 * both with Retry-After and a message naming the service. Undefined for other errors. XML-RPC uses
 * `busFailure(err)?.status` for its fault code.
 */
export function busFailure(err: unknown): AppError | undefined {
  if (!(err instanceof BusNoResponderError) && !(err instanceof BusTimeoutError)) return undefined;
  const owner = ownerOf(err.subject);
  const who = owner === undefined ? 'A service this request needs' : `The ${owner} service`;
  const headers = { 'Retry-After': String(BUS_RETRY_AFTER_SECONDS) };
  if (err instanceof BusNoResponderError)
    return new AppError(503, 'unavailable', `${who} is not answering; try again shortly.`, {
      headers,
      cause: err,
    });
  return new AppError(504, 'gateway_timeout', `${who} did not answer in time; try again shortly.`, {
    headers,
    cause: err,
  });
}

/** The CSP of our own HTML pages (docs/security.md, HTML); no `form-action` so approval redirects work. */
export const HTML_PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src https: data:; frame-ancestors 'none'";

/** Headers every HTML page of ours carries. */
export const HTML_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': HTML_PAGE_CSP,
};

/** A 403 for a token without the needed scope. OAuth-style bodies name the scope (Microsub clients read it). */
export class InsufficientScopeError extends AppError {
  readonly scope: string;
  constructor(scope: string) {
    super(403, 'insufficient_scope', `The token does not grant the "${scope}" scope.`, {
      headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    });
    this.name = 'InsufficientScopeError';
    this.scope = scope;
  }
}

/** The HTTP reason phrase: 400 → `Bad Request`. */
export function errorStatusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A route's handler (with its hooks and body) took longer than its time limit (defineRoute's timeoutMs). */
export const routeTimedOut = () => new AppError(503, 'timeout', 'The request took too long.');

// Fastify's own errors, by code, as the client should see them.
const FASTIFY_ERRORS: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => payloadTooLarge(),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => unsupportedMediaType(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => badRequest('Content-Length does not match the body.'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => badRequest('Malformed JSON body'),
  FST_ERR_CTP_INVALID_TYPE: () => badRequest('Invalid Content-Type header.'),
  FST_ERR_CTP_EMPTY_TYPE: () => badRequest('Invalid Content-Type header.'),
  FST_ERR_BAD_URL: () => badRequest('Malformed URL.'),
  // An over-long path parameter is never an existing resource.
  FST_ERR_MAX_PARAM_LENGTH: () => notFound(),
};

/**
 * Any thrown value as an AppError. Unknown errors become 500 `Internal error`; Fastify's client
 * errors keep their 4xx status with a fixed message (their text may quote internals).
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const bus = busFailure(err);
  if (bus) return bus;
  const e = err as { code?: unknown; statusCode?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const make = code === undefined ? undefined : FASTIFY_ERRORS[code];
  if (make) return make();
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return new AppError(status, 'invalid_request', `${errorStatusText(status)}.`);
  }
  return internalError(err);
}

export interface RenderedError {
  status: number;
  /** Lower-case names; includes content-type and x-request-id. */
  headers: Record<string, string>;
  body: string;
}

const BODY_LEVEL = new Set([400, 413, 415]);

function feedbinText(err: AppError): string {
  const prefix = `${err.param}: `;
  const text = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function htmlPage(status: number, message: string): string {
  const title = `${status} ${errorStatusText(status)}`;
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>\n`
  );
}

/** Status, headers and body of `err` in an area's shape. The gateway uses this for its own errors. */
export function renderError(style: ErrorStyle, err: AppError, requestId: string): RenderedError {
  const status = err.status >= 400 && err.status <= 599 ? err.status : 500;
  // 502/503/504 carry messages we wrote for the client (upstream down, busy); any other 5xx may
  // wrap internals, so it says only `Internal error`.
  const hidden =
    status >= 500 && (status === 500 || err.code === 'internal_error' || ![502, 503, 504].includes(status));
  const message = hidden ? 'Internal error' : err.message;
  const code = hidden ? 'internal_error' : err.code;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(err.headers)) headers[name.toLowerCase()] = value;
  headers['x-request-id'] = requestId;

  if (style === 'text') {
    headers['content-type'] = 'text/plain; charset=utf-8';
    return { status, headers, body: message };
  }
  if (style === 'html') {
    Object.assign(headers, HTML_PAGE_HEADERS, { 'content-type': 'text/html; charset=utf-8' });
    return { status, headers, body: htmlPage(status, message) };
  }
  let body: Record<string, unknown>;
  if (style === 'feedbin') {
    const named = err.param !== undefined && status < 500;
    body = {
      status,
      // A body-level problem (malformed JSON, too large, wrong type) names no parameter, so the
      // message itself says what is wrong; otherwise the reason phrase, as Feedbin sends it.
      message: !named && BODY_LEVEL.has(status) ? message : errorStatusText(status),
      errors: named ? [{ [err.param!]: feedbinText(err) }] : [],
    };
  } else if (style === 'oauth') {
    body = { error: code, error_description: message };
    if (err instanceof InsufficientScopeError) body.scope = err.scope;
  } else {
    body = { error: message };
  }
  headers['content-type'] = 'application/json; charset=utf-8';
  return { status, headers, body: JSON.stringify(body) };
}
