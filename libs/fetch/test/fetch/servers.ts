// Local HTTP servers for the fetcher tests: loopback only, never the internet. Each server counts the
// TCP connections it accepted, so a test can prove that a refused target was never contacted.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { jest } from '@jest/globals';
import type { OutboundPolicy, Resolver } from '../../src/fetch/index.js';

export interface TestServer {
  /** `http://host:port` without a trailing slash. */
  origin: string;
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export async function startServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  let connections = 0;
  const server = createServer(handler);
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver answering from a fixed table; unknown names fail like a missing DNS record. */
export function fakeResolver(table: Record<string, string[]>) {
  return jest.fn<Resolver>(async (hostname: string): Promise<LookupAddress[]> => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  });
}

export const STRICT: OutboundPolicy = { allowPrivate: false, allowHosts: [] };
export const LOOPBACK_ALLOWED: OutboundPolicy = { allowPrivate: false, allowHosts: ['127.0.0.1'] };
export const BASE_URL = 'https://murmur.test';
export const SMALL = { timeoutMs: 5_000, maxBytes: 1024 * 1024, maxRedirects: 5 };
