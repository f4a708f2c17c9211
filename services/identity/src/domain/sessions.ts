// Browser sessions created by /account/signin/web. The cookie carries a random id; the store keeps
// only its hash. The IndieAuth consent screen reads the same sessions.
import { randomToken, sha256Hex } from '@murmur/core';
import type { UserDoc } from '../store/index.js';
import type { IdentityContext } from './context.js';

export const SESSION_COOKIE = 'murmur_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The service's home page: where a web sign-in lands when `return_to` is absent or not same-origin. */
export const SIGNED_IN_PATH = '/';

export async function startWebSession(
  ctx: IdentityContext,
  userId: number,
): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = randomToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await ctx.store.insertWebSession({ _id: sha256Hex(sessionId), userId, createdAt: now, expiresAt });
  return { sessionId, expiresAt };
}

export async function webSessionUser(
  ctx: IdentityContext,
  sessionId: string | undefined,
): Promise<UserDoc | null> {
  if (!sessionId) return null;
  const session = await ctx.store.liveWebSession(sha256Hex(sessionId), ctx.clock.now());
  return session ? ctx.store.userById(session.userId) : null;
}

/**
 * `return_to` is followed only when it is a path on this origin: `/x`, never `//x`, never a scheme,
 * never a backslash (browsers read `/\x` as `//x`), never whitespace or control characters (browsers
 * strip tabs and newlines from URLs, and CR/LF must not reach the Location header).
 */
export function safeReturnTo(returnTo: string | undefined): string {
  if (returnTo === undefined || returnTo.length > 2048) return SIGNED_IN_PATH;
  if (!returnTo.startsWith('/') || returnTo.startsWith('//')) return SIGNED_IN_PATH;
  if (/[\\\s\p{Cc}]/u.test(returnTo)) return SIGNED_IN_PATH;
  return returnTo;
}

export function sessionCookie(sessionId: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.floor(SESSION_TTL_MS / 1000);
  const attributes = [
    `Max-Age=${maxAge}`,
    `Expires=${expiresAt.toUTCString()}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) attributes.push('Secure');
  return `${SESSION_COOKIE}=${sessionId}; ${attributes.join('; ')}`;
}

/** The value of one cookie from a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Signing out: the session stops working everywhere, whatever the browser keeps. */
export async function endWebSession(ctx: IdentityContext, sessionId: string | undefined): Promise<void> {
  if (sessionId) await ctx.store.deleteWebSession(sha256Hex(sessionId));
}

/** A Set-Cookie that makes the browser drop the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  const attributes = [
    'Max-Age=0',
    'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) attributes.push('Secure');
  return `${SESSION_COOKIE}=; ${attributes.join('; ')}`;
}
