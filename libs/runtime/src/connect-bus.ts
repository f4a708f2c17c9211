// One setting chooses the bus (docs/architecture.md, run modes): `memory:` runs everything in this process, `nats://…` goes distributed.
import { memoryBroker, MemoryBus } from '@murmur/bus';
import type { Bus, BusClientOptions } from '@murmur/bus';
import { parseNatsServers } from '@murmur/core';

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
    const { NatsBus } = await import('@murmur/bus-nats');
    return NatsBus.connect(servers, auth ? { ...options, auth } : options);
  }
  // Only the scheme is echoed: the rest of a URL may carry credentials.
  throw new Error(
    `unsupported bus URL scheme "${url.split(':')[0]}:": use memory:[name] or nats://host:port[,…]`,
  );
}
