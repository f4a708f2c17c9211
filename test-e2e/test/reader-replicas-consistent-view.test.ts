// Scale-out: two reader replicas behind the gateway, sharing one store (as replicas share one MongoDB).
// Each replica keeps its own in-memory view of a user (services/reader/src/domain/views.ts); a view is
// used only while the user's state version in the store is the one it was built at, so a change made
// through one replica is seen by the next request to the other — no sticky routing needed. Requests
// here go through the gateway to a balancer that picks the replica by a test header.
import type { BaseConfig } from '@murmur/core';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { services } from '@murmur/cli';
import { createGatewayServers, gatewayConfigSchema } from '@murmur/gateway';
import { type Bus } from '@murmur/bus';
import { loadConfig } from '@murmur/core';
import { connectBus, openStore, startService, type RunningService } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import { startFakeIdentity, testLogger, type FakeIdentity } from '@murmur/testing';

type GatewayApp = Awaited<ReturnType<typeof createGatewayServers>>['app'];

const TOKEN = 'replica-test-token-0123456789abcdefghijklmnop';
const ITEMS = 6;

function feedXml(): string {
  const items = Array.from(
    { length: ITEMS },
    (_, i) =>
      `<item><title>Item ${i}</title><link>http://127.0.0.1/${i}</link><guid>replica-${i}</guid>` +
      `<pubDate>${new Date(Date.UTC(2026, 0, 1, 0, i)).toUTCString()}</pubDate><description>Text ${i}</description></item>`,
  ).join('');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Replicas</title><link>http://127.0.0.1/</link>${items}</channel></rss>`;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('two reader replicas behind the gateway', () => {
  const replicas: Array<{ bus: Bus; identity: FakeIdentity; reader: RunningService<BaseConfig> }> = [];
  let store: Store;
  let feedServer: Server;
  let feedUrl: string;
  let balancer: Server;
  let gateway: GatewayApp;
  let internal: GatewayApp;
  let gatewayUrl: string;

  beforeAll(async () => {
    feedServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(feedXml());
    });
    feedUrl = `${await listen(feedServer)}/feed.xml`;

    // One store for both replicas; each replica its own bus (with identity answering its token checks).
    store = await openStore('memory:', { service: 'reader' });
    const readerService = services.find((s) => s.name === 'reader')!;
    for (const n of [1, 2]) {
      const bus = await connectBus(`memory:reader-replica-${n}-${process.pid}`, {
        service: 'reader',
        logger: testLogger(),
      });
      const identity = await startFakeIdentity(bus);
      identity.addUser({ id: 1, username: 'ann' });
      identity.addToken({ userId: 1, token: TOKEN });
      const reader = await startService(readerService, {
        env: {
          PATH: process.env.PATH,
          STORE_URL: 'memory:',
          PUBLIC_URL: 'http://murmur.test',
          LOG_LEVEL: 'silent',
          OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
        },
        store,
        bus,
        logger: testLogger(),
        host: '127.0.0.1',
        port: 0,
      });
      replicas.push({ bus, identity, reader });
    }

    // The load balancer in front of the replicas: `x-replica: 1|2` picks one.
    balancer = createServer((req, res) => {
      const replica = replicas[Number(req.headers['x-replica'] ?? 1) - 1]!;
      const target = new URL(req.url ?? '/', replica.reader.url);
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    const balancerUrl = await listen(balancer);

    const config = loadConfig(gatewayConfigSchema, { GATEWAY_RATE_LIMIT_PER_MINUTE: '0' });
    ({ app: gateway, internal } = await createGatewayServers({
      config,
      targets: { reader: balancerUrl },
      logger: testLogger(),
    }));
    gatewayUrl = await gateway.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await internal?.close();
    balancer?.close();
    for (const { reader, identity, bus } of replicas) {
      await reader.stop();
      await identity.stop();
      await bus.close();
    }
    await store?.close();
    feedServer?.close();
  });

  async function call(
    replica: 1 | 2,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'x-replica': String(replica),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
  }

  const unread = async (replica: 1 | 2) =>
    ((await call(replica, 'GET', '/feeds/v2/unread_entries.json')).json as number[]).sort((a, b) => a - b);

  test('200-marked-read-through-one-replica-is-read-through-the-other (and back), starred too', async () => {
    const subscribed = await call(1, 'POST', '/feeds/v2/subscriptions.json', { feed_url: feedUrl });
    expect(subscribed.status).toBe(200);

    // Both replicas build and cache their view of ann.
    const all = await unread(2);
    expect(all).toHaveLength(ITEMS);
    expect(await unread(1)).toEqual(all);

    // Marked read through replica 1: replica 2's cached view must not answer the old state.
    const [a, b, c] = all as [number, number, number];
    expect(
      (await call(1, 'DELETE', '/feeds/v2/unread_entries.json', { unread_entries: [a, b] })).status,
    ).toBe(200);
    expect(await unread(2)).toEqual(all.filter((id) => id !== a && id !== b));
    const unreadEntries = (await call(2, 'GET', '/feeds/v2/entries.json?read=false')).json as Array<{
      id: number;
    }>;
    expect(unreadEntries.map((e) => e.id).sort((x, y) => x - y)).toEqual(
      all.filter((id) => id !== a && id !== b),
    );

    // Marked unread again through replica 2: replica 1 sees it.
    expect((await call(2, 'POST', '/feeds/v2/unread_entries.json', { unread_entries: [a] })).status).toBe(
      200,
    );
    expect(await unread(1)).toEqual(all.filter((id) => id !== b));

    // Starred through replica 1, seen through replica 2.
    expect((await call(1, 'POST', '/feeds/v2/starred_entries.json', { starred_entries: [c] })).status).toBe(
      200,
    );
    expect((await call(2, 'GET', '/feeds/v2/starred_entries.json')).json).toEqual([c]);
  });

  test('200-unsubscribed-through-one-replica-is-gone-through-the-other', async () => {
    const subs = (await call(2, 'GET', '/feeds/v2/subscriptions.json')).json as Array<{ id: number }>;
    expect(subs).toHaveLength(1);
    expect((await call(1, 'GET', '/feeds/v2/subscriptions.json')).json).toEqual(subs);
    expect((await call(1, 'DELETE', `/feeds/v2/subscriptions/${subs[0]!.id}.json`)).status).toBe(204);
    expect((await call(2, 'GET', '/feeds/v2/subscriptions.json')).json).toEqual([]);
  });
});
