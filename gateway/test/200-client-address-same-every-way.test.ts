// A service must see the same client — address, scheme, host — whichever way the gateway hands it the
// request: proxied over HTTP (the service's peer is the gateway), or in process through the fast lane
// or the route's hand-off (the service's peer is the client's own). The gateway resolves the client under
// TRUST_PROXY; a service in process, given the client's socket, resolves it again under the same value.
// Clients connect from 127.0.0.2, which each case's TRUST_PROXY trusts or not, so both sides of the rule
// are exercised on this machine's loopback.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fastify, { type FastifyInstance } from 'fastify';
import { startGateway, type TestGateway } from './helpers.js';

interface Seen {
  ip: string;
  protocol: string;
  host: string;
  transport: 'socket' | 'in-process';
}

/** A service that says who it thinks the client is, trusting proxies as `trustProxy` says. */
async function startService(trustProxy: string[]): Promise<{ app: FastifyInstance; url: string }> {
  const app = fastify({ trustProxy });
  let ownPort = -1;
  app.get('/account/me', async (request): Promise<Seen> => ({
    ip: request.ip,
    protocol: request.protocol,
    host: request.host,
    transport: request.raw.socket.localPort === ownPort ? 'socket' : 'in-process',
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  ownPort = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${ownPort}` };
}

/** GET /account/me from 127.0.0.2. */
function getFrom127002(baseUrl: string, headers: Record<string, string>): Promise<Seen> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: Number(port), path: '/account/me', localAddress: '127.0.0.2', headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode === 200) resolve(JSON.parse(text) as Seen);
          else reject(new Error(`${res.statusCode}: ${text}`));
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const ways = [
  ['proxied over HTTP', { inProcess: false, fastLane: false }],
  ['in process, fast lane', { inProcess: true, fastLane: true }],
  ['in process, the route’s hand-off', { inProcess: true, fastLane: false }],
] as const;

interface Scenario {
  trust: string;
  what: string;
  headers: Record<string, string>;
  expected: Omit<Seen, 'transport'>;
}

describe.each<Scenario>([
  {
    trust: 'loopback',
    what: 'a trusted proxy in front',
    headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
    expected: { ip: '203.0.113.7', protocol: 'https', host: 'svc.example' },
  },
  {
    trust: '127.0.0.1,127.0.0.2',
    what: 'a chain of proxies, the nearest trusted',
    headers: { 'x-forwarded-for': '198.51.100.9, 203.0.113.7', 'x-forwarded-proto': 'https' },
    expected: { ip: '203.0.113.7', protocol: 'https', host: 'svc.example' },
  },
  {
    // The gateway's own address stays trusted, as a distributed deployment's services must trust it.
    trust: '127.0.0.1',
    what: 'an untrusted client forging forwarded headers',
    headers: {
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
    },
    expected: { ip: '127.0.0.2', protocol: 'http', host: 'svc.example' },
  },
  {
    trust: '127.0.0.1',
    what: 'an untrusted client reaching the gateway directly',
    headers: { host: 'whatever.example' },
    expected: { ip: '127.0.0.2', protocol: 'http', host: 'svc.example' },
  },
])('TRUST_PROXY=$trust, $what', ({ trust, headers, expected }) => {
  let service: { app: FastifyInstance; url: string };
  const gateways = new Map<string, TestGateway>();

  beforeAll(async () => {
    service = await startService(trust.split(','));
    for (const [name, way] of ways) {
      const gateway = await startGateway(
        { identity: service.url },
        { PUBLIC_URL: 'https://svc.example', TRUST_PROXY: trust },
        { inProcess: way.inProcess ? { identity: service.app } : false, fastLane: way.fastLane },
      );
      gateways.set(name, gateway);
    }
  });

  afterAll(async () => {
    await Promise.all([...gateways.values()].map((g) => g.close()));
    await service.app.close();
  });

  it.each(ways)('%s', async (name, way) => {
    const seen = await getFrom127002(gateways.get(name)!.url, headers);
    expect(seen).toEqual({ ...expected, transport: way.inProcess ? 'in-process' : 'socket' });
  });
});
