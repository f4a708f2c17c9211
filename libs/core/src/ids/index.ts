// Secrets and their storage form (docs/security.md, tokens and secrets): 32 random bytes as base64url, kept only as SHA-256.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url without padding: 43 characters. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Constant-time equality of two hash strings. Compares the characters themselves (not hex-decoded
 * bytes: Buffer.from(x, 'hex') silently drops invalid characters, which would make junk compare equal).
 */
export function timingSafeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A random UUID (v4). */
export function randomId(): string {
  return randomUUID();
}
