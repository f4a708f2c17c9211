// One setting chooses the bus (DESIGN.md §2): `memory:` runs everything in this process, `nats://…` goes distributed.
import { memoryBroker } from './memory-broker.js';
import { MemoryBus } from './memory.js';
import type { Bus, BusClientOptions } from './port.js';

/**
 * `memory:` → the process-wide broker; `memory:<name>` → a separate broker of that name (tests);
 * `nats://host:port[,nats://host:port…]` (or `tls://…`) → NATS, its streams created or updated on connect.
 */
export async function connectBus(url: string, options: BusClientOptions): Promise<Bus> {
  if (url.startsWith('memory:')) return new MemoryBus(memoryBroker(url.slice('memory:'.length)), options);
  if (/^(nats|tls):\/\//.test(url)) {
    const servers = url
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    // Loaded on demand, like the MongoDB driver: the single process never needs the NATS client.
    const { NatsBus } = await import('./nats.js');
    return NatsBus.connect(servers, options);
  }
  // Only the scheme is echoed: the rest of a URL may carry credentials.
  throw new Error(
    `unsupported bus URL scheme "${url.split(':')[0]}:": use memory:[name] or nats://host:port[,…]`,
  );
}
