// Body parsers. Only JSON, form and (on routes that ask for it) XML bodies are read; anything else
// is 415 before a byte of it is buffered.
import type { FastifyInstance } from 'fastify';
import { badRequest } from '@murmur/core';
import { FORBIDDEN_KEYS, MAX_PARAMS, parseUrlEncoded, tooManyParams } from './params.js';

export const MAX_JSON_DEPTH = 20;

export const XML_MEDIA_TYPES = ['text/xml', 'application/xml'] as const;

/** Nesting depth of a JSON text, counted without parsing (so a hostile 10⁶-deep body costs one pass). */
function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * JSON.parse that refuses nesting deeper than MAX_JSON_DEPTH and drops `__proto__`, `constructor` and
 * `prototype` keys at every level (docs/security.md, request bodies). Empty text is no body.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
    throw badRequest(`JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  let parsed: unknown;
  try {
    // JSON.parse defines `__proto__` as an own property (never the prototype); the reviver deletes it.
    parsed = JSON.parse(text, (key, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
  } catch {
    throw badRequest('Malformed JSON body');
  }
  // The top level of an object is a parameter list like a form body, with the same cap.
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    let keys = 0;
    for (const key in parsed) if (Object.hasOwn(parsed, key) && ++keys > MAX_PARAMS) throw tooManyParams();
  }
  return parsed;
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseUrlEncoded(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // Only routes declaring `xml: true` get this far; others answer 415 in preParsing.
  app.addContentTypeParser([...XML_MEDIA_TYPES], { parseAs: 'string' }, (_req, body, done) => {
    done(null, body);
  });
}

/** The media type of a request without parameters, lower case; '' when absent. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}
