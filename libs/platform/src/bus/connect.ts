// One setting chooses the bus (docs/architecture.md, run modes): `memory:` runs everything in this process, `nats://…` goes distributed.
import { memoryBroker } from './memory-broker.js';
import { MemoryBus } from './memory.js';
import type { Bus, BusClientOptions } from './port.js';

export interface NatsServers {
  /** Server URLs without user info, as the NATS client takes them. */
  servers: string[];
  /** The user and password of the URL's user info (percent-decoded), when it has one. */
  auth?: { user: string; pass: string };
}

/**
 * `nats://user:password@host:4222[,nats://user:password@host2:4222…]` → the servers and one set of credentials.
 * Credentials may be written on every server or on the first only; servers naming different ones are refused
 * (the client authenticates the same way to whichever server it reaches). Error messages never echo a password.
 */
export function parseNatsServers(url: string): NatsServers {
  const parts = url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let auth: { user: string; pass: string } | undefined;
  const servers = parts.map((part, index) => {
    let parsed: URL;
    try {
      parsed = new URL(part);
    } catch {
      throw new Error(`bus URL: server ${index + 1} is not a URL (nats://[user:password@]host:port)`);
    }
    if (!/^(nats|tls):$/.test(parsed.protocol) || !parsed.host) {
      throw new Error(`bus URL: server ${index + 1} must be nats://[user:password@]host:port`);
    }
    if (parsed.username !== '' || parsed.password !== '') {
      const here = { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) };
      if (here.user === '') throw new Error(`bus URL: server ${index + 1} has a password but no user`);
      if (auth && (auth.user !== here.user || auth.pass !== here.pass)) {
        throw new Error('bus URL: the servers name different credentials; use one user for all of them');
      }
      auth = here;
    }
    return `${parsed.protocol}//${parsed.host}`;
  });
  if (servers.length === 0) throw new Error('bus URL names no server');
  return auth ? { servers, auth } : { servers };
}

/**
 * `memory:` → the process-wide broker; `memory:<name>` → a separate broker of that name (tests);
 * `nats://[user:password@]host:port[,nats://host:port…]` (or `tls://…`) → NATS, its streams created or updated on
 * connect, authenticating as that user when the URL has user info.
 */
export async function connectBus(url: string, options: BusClientOptions): Promise<Bus> {
  if (url.startsWith('memory:')) return new MemoryBus(memoryBroker(url.slice('memory:'.length)), options);
  if (/^(nats|tls):\/\//.test(url)) {
    const { servers, auth } = parseNatsServers(url);
    // Loaded on demand, like the MongoDB driver: the single process never needs the NATS client.
    const { NatsBus } = await import('./nats.js');
    return NatsBus.connect(servers, auth ? { ...options, auth } : options);
  }
  // Only the scheme is echoed: the rest of a URL may carry credentials.
  throw new Error(
    `unsupported bus URL scheme "${url.split(':')[0]}:": use memory:[name] or nats://host:port[,…]`,
  );
}
