// What every method gets: the service, the process's authenticator, the client's address (for the
// failed-login throttle) and the bus headers of the request; and the shared login step.
import type { Authenticator } from '@murmur/http';
import type { BusHeaders, Caller, PublishingContext } from '../domain/context.js';
import { badLogin } from '../domain/errors.js';
import { asString } from './params.js';
import type { VerifiedLogin } from './read-call.js';
import type { XmlRpcOut, XmlRpcValue } from './values.js';

export interface CallContext {
  ctx: PublishingContext;
  authenticator: Authenticator;
  clientIp: string;
  headers: BusHeaders;
  /** The login checked while the body was read, if it was. */
  verified?: VerifiedLogin;
}

export interface MethodDef {
  /** Fewest and most parameters accepted. */
  params: readonly [number, number];
  run(params: XmlRpcValue[], call: CallContext): Promise<XmlRpcOut>;
}

export type MethodTable = Record<string, MethodDef>;

/**
 * A username (or email) and app token, checked by identity through the platform's authenticator:
 * failed logins count per (login, client address) in the store, and over the limit that pair gets
 * HTTP 429 until the window ends, even with the right token (docs/api/publishing.md, "Logging in").
 */
export async function login(
  ctx: PublishingContext,
  authenticator: Authenticator,
  name: string,
  token: string,
  client: { ip: string; headers: BusHeaders },
): Promise<Caller> {
  const auth = await authenticator.verifyCredentials(name, token, client);
  if (!auth) throw badLogin();
  return { userId: auth.userId, username: auth.username };
}

/** Authenticates with the username (or email) and token parameters at the given positions. */
export async function authenticate(
  params: XmlRpcValue[],
  usernameAt: number,
  tokenAt: number,
  call: CallContext,
): Promise<Caller> {
  const username = asString(params[usernameAt], 'username');
  const token = asString(params[tokenAt], 'password');
  const known = call.verified;
  const caller =
    known && known.login === username && known.token === token
      ? known.caller
      : await login(call.ctx, call.authenticator, username, token, {
          ip: call.clientIp,
          headers: call.headers,
        });
  await call.ctx.limits.enforce('xmlrpc-calls', String(caller.userId));
  return caller;
}
