// What every method gets: the service, the client's address (for the login throttle) and the bus headers
// of the request; and the shared login step.
import type { BusHeaders, Caller, PublishingContext } from '../domain/context.js';
import { login } from '../domain/auth.js';
import { asString } from './params.js';
import type { XmlRpcOut, XmlRpcValue } from './values.js';

export interface CallContext {
  ctx: PublishingContext;
  clientIp: string;
  headers: BusHeaders;
}

export interface MethodDef {
  /** Fewest and most parameters accepted. */
  params: readonly [number, number];
  run(params: XmlRpcValue[], call: CallContext): Promise<XmlRpcOut>;
}

export type MethodTable = Record<string, MethodDef>;

/** Authenticates with the username (or email) and token parameters at the given positions. */
export function authenticate(
  params: XmlRpcValue[],
  usernameAt: number,
  tokenAt: number,
  call: CallContext,
): Promise<Caller> {
  const username = asString(params[usernameAt], 'username');
  const token = asString(params[tokenAt], 'password');
  return login(call.ctx, username, token, call.clientIp, call.headers);
}
