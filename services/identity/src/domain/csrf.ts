// CSRF tokens of the browser forms (docs/security.md): an HMAC of the session id and the form's
// purpose, under a server secret. Nothing is stored per form; a token is only good for the session
// (and the form) it was made for. The secret is made on first start and kept in identity's store, so
// every replica computes the same tokens without any configuration.
import { createHmac } from 'node:crypto';
import { randomToken, sha256Hex, timingSafeEqualHex } from '@murmur/core';
import type { IdentityStore } from '../store/index.js';

const SECRET_NAME = 'csrf';

export function loadCsrfSecret(store: IdentityStore, now: Date): Promise<string> {
  return store.sharedSecret(SECRET_NAME, randomToken, now);
}

/** Purposes: `approve:<request id>` for the consent form, `signout` for the sign-out form. */
export function csrfToken(secret: string, sessionId: string, purpose: string): string {
  return createHmac('sha256', secret).update(`${purpose}\0${sessionId}`).digest('base64url');
}

export function csrfTokenValid(
  secret: string,
  sessionId: string,
  purpose: string,
  presented: string | undefined,
): boolean {
  if (presented === undefined || presented === '') return false;
  // Compared as hashes: equal length, constant time.
  return timingSafeEqualHex(sha256Hex(presented), sha256Hex(csrfToken(secret, sessionId, purpose)));
}
