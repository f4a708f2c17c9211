// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection: the client's to the gateway or the
// gateway's to a service, never both, so they are dropped in both directions along with every header
// the Connection header names. Forwarded, some of them make undici refuse the request (a 502 for the
// client): `Expect: 100-continue` is answered by the gateway itself (app.ts), `Upgrade` and `Keep-Alive`
// belong to the client's connection, and `Proxy-Authorization` is a credential for this hop only.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/**
 * The lengths of the HOP_BY_HOP names as bits (2, 6, 7, 10, 16–19): a name of another length cannot be
 * one, and most are of another length (content-type, content-length, x-request-id, host,
 * authorization), so the set is asked about few names. Counted, the set's lookups were 0.4k of the
 * 9k instructions the in-process lane adds a request (bench/gateway/instructions.mjs --names).
 */
const HOP_BY_HOP_LENGTHS = [...HOP_BY_HOP].reduce((bits, name) => bits | (1 << name.length), 0);

/** Whether `name` may be a HOP_BY_HOP name, by its length alone (every one is shorter than 32). */
const mayBeHopByHop = (name: string): boolean =>
  name.length < 32 && (HOP_BY_HOP_LENGTHS & (1 << name.length)) !== 0;

/** The header names a Connection header lists (lower case), or null when there is none. */
export function connectionListed(connection: unknown): Set<string> | null {
  if (connection === undefined || connection === null) return null;
  // What nearly every client sends: nothing beyond the hop-by-hop names themselves.
  if (connection === 'keep-alive' || connection === 'close' || connection === 'Keep-Alive') return null;
  const text = Array.isArray(connection) ? connection.join(',') : String(connection);
  const names = new Set<string>();
  for (const name of text.split(',')) {
    const key = name.trim().toLowerCase();
    if (key) names.add(key);
  }
  return names;
}

/** Whether a (lower-case) header name belongs to one connection only. */
export function isHopByHop(name: string, listed: Set<string> | null): boolean {
  return (mayBeHopByHop(name) && HOP_BY_HOP.has(name)) || (listed !== null && listed.has(name));
}

/**
 * Removes the hop-by-hop headers and those the Connection header lists, in place. `connection`: the
 * Connection header that came with them, when it is no longer among them.
 */
export function stripHopByHop(
  headers: IncomingHttpHeaders,
  connection: unknown = headers.connection,
): IncomingHttpHeaders {
  const listed = connectionListed(connection);
  for (const name of Object.keys(headers)) if (isHopByHop(name, listed)) delete headers[name];
  return headers;
}

/** Whether `headers` holds a hop-by-hop header (a Connection header among them: it is one itself). */
export function hasHopByHop(headers: IncomingHttpHeaders): boolean {
  for (const name in headers) if (mayBeHopByHop(name) && HOP_BY_HOP.has(name)) return true;
  return false;
}

/**
 * A copy of `headers` without the hop-by-hop headers. Built by adding, never by deleting: an object
 * that lost a property is slower to read for every hook of the service that reads the copy.
 */
export function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const listed = connectionListed(headers.connection);
  const out: IncomingHttpHeaders = {};
  for (const name in headers) if (!isHopByHop(name, listed)) out[name] = headers[name];
  return out;
}

/** Response headers a service may not send past the gateway on a route without CORS (cors.ts). */
export function isCorsHeader(name: string): boolean {
  return name.startsWith('access-control-');
}

/**
 * Adds a service's response header `name` (lower case) to the client's head `out`, unless it belongs to
 * the service's hop (`listed`: what its Connection header named) or is a CORS header on a route without
 * CORS. The one rule for every way a service's head reaches the client (in-process.ts, http-lane.ts).
 */
export function passServiceHeader(
  out: OutgoingHttpHeaders,
  name: string,
  value: OutgoingHttpHeaders[string],
  listed: Set<string> | null,
  publicRoute: boolean,
): void {
  if (value === undefined || isHopByHop(name, listed)) return;
  if (!publicRoute && isCorsHeader(name)) return;
  out[name] = value;
}
