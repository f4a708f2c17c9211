// The one error type of the platform (docs/architecture.md, errors). Handlers throw these through the factories;
// the HTTP app renders them in each area's shape, the bus carries them as `{status, code, message, param}`.

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | undefined;
  /** Extra response headers, e.g. `Retry-After` for 429. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { param?: string; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.param = opts.param;
    this.headers = opts.headers ?? {};
  }

  toJSON(): { status: number; code: string; message: string; param?: string } {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.param ? { param: this.param } : {}),
    };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** A parameter is missing or malformed. The message names the parameter. */
export const badRequest = (message: string, param?: string, code = 'invalid_request') =>
  new AppError(400, code, message, param === undefined ? {} : { param });
export const unauthorized = (message = 'A valid token is required.', code = 'invalid_token') =>
  new AppError(401, code, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
export const forbidden = (message = 'Not allowed.', code = 'forbidden') => new AppError(403, code, message);
/** Also used for another user's resource: existence is never revealed. */
export const notFound = (message = 'Not found.', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const payloadTooLarge = (message = 'Request body is too large.') =>
  new AppError(413, 'payload_too_large', message);
export const unsupportedMediaType = (message = 'Unsupported content type.') =>
  new AppError(415, 'unsupported_media_type', message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests. Try again later.') =>
  new AppError(429, 'rate_limited', message, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
export const internalError = (cause?: unknown) =>
  new AppError(500, 'internal_error', 'Internal error', { cause });
export const badGateway = (message = 'The service behind this path is not reachable.') =>
  new AppError(502, 'bad_gateway', message);
export const serviceUnavailable = (message = 'Service unavailable.', retryAfterSeconds?: number) =>
  new AppError(
    503,
    'unavailable',
    message,
    retryAfterSeconds === undefined ? {} : { headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
export const gatewayTimeout = (message = 'The service behind this path did not answer in time.') =>
  new AppError(504, 'gateway_timeout', message);
