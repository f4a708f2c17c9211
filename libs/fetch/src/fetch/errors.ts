// Errors of the safe fetcher. Callers branch on the class (blocked → "not found", timeout → retry later)
// and log `message`; none of them carries response data.

export class FetchError extends Error {
  /** The URL being fetched when the error happened (after redirects); filled in by the fetcher. */
  url: string | undefined;

  constructor(message: string, opts: { url?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'FetchError';
    this.url = opts.url;
  }
}

/** The target is refused by the outbound policy (scheme, port, userinfo, length or address). */
export class FetchBlockedError extends FetchError {
  readonly reason: string;

  constructor(reason: string, opts: { url?: string } = {}) {
    super(`Outbound request blocked: ${reason}`, opts);
    this.name = 'FetchBlockedError';
    this.reason = reason;
  }
}

/** The whole exchange (connect, redirects, headers and body) exceeded the use's time budget. */
export class FetchTimeoutError extends FetchError {
  constructor(timeoutMs: number, opts: { url?: string; cause?: unknown } = {}) {
    super(`Outbound request timed out after ${timeoutMs} ms`, opts);
    this.name = 'FetchTimeoutError';
  }
}

/** The (decompressed) body exceeded the use's byte cap; the read was aborted. */
export class FetchTooLargeError extends FetchError {
  constructor(maxBytes: number, opts: { url?: string } = {}) {
    super(`Response body larger than ${maxBytes} bytes`, opts);
    this.name = 'FetchTooLargeError';
  }
}

/** Too many redirect hops, or a redirect whose Location cannot be used. */
export class FetchRedirectError extends FetchError {
  constructor(message: string, opts: { url?: string } = {}) {
    super(message, opts);
    this.name = 'FetchRedirectError';
  }
}
