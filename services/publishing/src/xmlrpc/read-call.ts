// Reading a POST /xmlrpc body as it arrives. The method name and the login parameters come first in
// every call, so the login is checked as soon as they are decoded and a bad one is refused without
// reading (let alone decoding) the rest, which for a media upload is most of 36 MiB. Calls that are
// not media uploads get a small body limit, and only a few large bodies are read at once per process.
// docs/api/publishing.md ("Limits") describes what a client sees.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AppError, payloadTooLarge } from '@murmur/core';
import type { Caller } from '../domain/context.js';
import { createMethodCallDecoder } from './decode.js';
import type { MethodCall } from './values.js';

export interface BodyLimits {
  /** Any call, media uploads included. */
  maxBytes: number;
  /** Calls of every other method. */
  maxSmallBytes: number;
  /** Bodies larger than this hold one of `largeSlots` while they are read. */
  largeBytes: number;
}

export interface ReadCallOptions {
  limits: BodyLimits;
  /** The declared Content-Length, if any. */
  declaredBytes: number | undefined;
  /** Positions of the login and token parameters of a method, or undefined (no login). */
  loginOf(methodName: string): readonly [number, number] | undefined;
  isMediaUpload(methodName: string): boolean;
  /** Resolves to the caller, or throws (403 bad login, 429 throttled, 503/504 identity away). */
  checkLogin(login: string, token: string): Promise<Caller>;
  largeSlots: LargeBodySlots;
}

export interface VerifiedLogin {
  login: string;
  token: string;
  caller: Caller;
}

export interface ReadOutcome {
  call?: MethodCall;
  /** Why the call is refused (a fault, an AppError). */
  error?: unknown;
  /** The login already checked while reading. */
  verified?: VerifiedLogin;
  /** False when the body was not read to its end (the connection should close). */
  complete: boolean;
}

/** How many large bodies are read at once in this process. */
export class LargeBodySlots {
  private used = 0;
  constructor(readonly size: number) {}
  tryAcquire(): boolean {
    if (this.used >= this.size) return false;
    this.used++;
    return true;
  }
  release(): void {
    if (this.used > 0) this.used--;
  }
}

export const RETRY_LARGE_BODY_SECONDS = 5;

const busy = () =>
  new AppError(503, 'busy', 'Too many large uploads at once; try again shortly.', {
    headers: { 'Retry-After': String(RETRY_LARGE_BODY_SECONDS) },
  });
const tooLarge = (max: number) => payloadTooLarge(`The request body is larger than ${max} bytes.`);

export function readCall(payload: Readable, options: ReadCallOptions): Promise<ReadOutcome> {
  const { limits } = options;
  const declared = options.declaredBytes ?? 0;
  const decoder = createMethodCallDecoder();
  const utf8 = new StringDecoder('utf8');
  let bytes = 0;
  let holdsSlot = false;
  let checking = false;
  let checked = false;
  let ended = false;
  let settled = false;
  let verified: VerifiedLogin | undefined;

  return new Promise<ReadOutcome>((resolve) => {
    const cleanup = () => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
      payload.off('close', onClose);
      if (holdsSlot) options.largeSlots.release();
      holdsSlot = false;
    };
    const finish = (outcome: ReadOutcome) => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(verified ? { ...outcome, verified } : outcome);
    };
    // Stops reading: the rest of the body is never buffered.
    const refuse = (error: unknown) => {
      payload.pause();
      finish({ error, complete: ended });
    };

    const limit = () => {
      const name = decoder.methodName;
      return name === undefined || !options.isMediaUpload(name) ? limits.maxSmallBytes : limits.maxBytes;
    };
    const sizeOk = (): boolean => {
      const size = Math.max(bytes, declared);
      // Until the method name is known the body may still be an upload; its name comes first.
      const max =
        decoder.methodName === undefined && bytes <= limits.maxSmallBytes ? limits.maxBytes : limit();
      if (size > max) {
        refuse(tooLarge(max));
        return false;
      }
      if (!holdsSlot && size > limits.largeBytes) {
        if (!options.largeSlots.tryAcquire()) {
          refuse(busy());
          return false;
        }
        holdsSlot = true;
      }
      return true;
    };

    const maybeCheckLogin = () => {
      if (checked || checking || decoder.methodName === undefined) return;
      const at = options.loginOf(decoder.methodName);
      if (!at) {
        checked = true;
        return;
      }
      const params = decoder.params;
      if (params.length <= Math.max(at[0], at[1])) return;
      const login = params[at[0]];
      const token = params[at[1]];
      // Parameters of the wrong type are the method's to report, once the call is read.
      if (typeof login !== 'string' || typeof token !== 'string') {
        checked = true;
        return;
      }
      checking = true;
      payload.pause();
      options.checkLogin(login, token).then(
        (caller) => {
          checking = false;
          checked = true;
          verified = { login, token, caller };
          if (ended) complete();
          else payload.resume();
        },
        (err: unknown) => refuse(err),
      );
    };

    const complete = () => {
      try {
        decoder.write(utf8.end());
        const call = decoder.close();
        finish({ call, complete: true });
      } catch (err) {
        finish({ error: err, complete: true });
      }
    };

    function onData(chunk: Buffer) {
      if (settled) return;
      bytes += chunk.length;
      if (!sizeOk()) return;
      try {
        decoder.write(utf8.write(chunk));
      } catch (err) {
        refuse(err);
        return;
      }
      if (!sizeOk()) return;
      maybeCheckLogin();
    }
    function onEnd() {
      ended = true;
      if (!settled && !checking) complete();
    }
    function onError(err: Error) {
      finish({ error: err, complete: false });
    }
    // The client went away before the end: nothing to answer.
    function onClose() {
      if (!ended) finish({ error: new Error('request aborted'), complete: false });
    }

    if (!sizeOk()) return;
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.on('close', onClose);
  });
}
