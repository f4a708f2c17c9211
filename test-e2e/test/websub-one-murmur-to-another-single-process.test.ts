// One Murmur's post reaches another Murmur's reader through the first one's WebSub hub, with no poll in
// between (issue 42). Murmur A publishes ada's site, whose feed.xml names A's hub; bob, on Murmur B,
// subscribes to that feed in the Feedbin API. B's reader finds the hub and subscribes there with a
// callback on its PUBLIC_URL; A's hub verifies it and, when ada posts, delivers the new feed signed; the
// post is in bob's unread entries. B polls at most once a day here, so only the push can bring it.
//
// B's PUBLIC_URL is a relay on 127.0.0.1 that passes every request on to B's gateway and records what
// the hub sent: the verification and the delivery are seen on the wire, not inferred.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startSingleProcess, type SingleProcess } from '@murmur/cli';
import { freePort } from '@murmur/testing';
import { eventually, xmlrpc } from '../support/client.js';

interface Instance {
  murmur: SingleProcess;
  dataDir: string;
  url: string;
}
const instances: Instance[] = [];

async function startOne(name: string, publicUrl: (port: number) => string, env: Record<string, string> = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `murmur-e2e-websub-${name}-`));
  const murmur = await startSingleProcess({
    PATH: process.env.PATH,
    PORT: String(port),
    GATEWAY_INTERNAL_PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BUS_URL: `memory:e2e-websub-${name}-${process.pid}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: publicUrl(port),
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
  const instance = { murmur, dataDir, url: `http://127.0.0.1:${port}` };
  instances.push(instance);
  return instance;
}

/** What reached B through its public address: method, path with query, status answered. */
interface Seen {
  method: string;
  path: string;
  status: number;
  signature: string | undefined;
}

/** A relay on 127.0.0.1 to `target`, recording each request (B's public address in this test). */
async function startRelay(target: () => string) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      new URL(req.url ?? '/', target()),
      { method: req.method, headers: req.headers },
      (answer) => {
        seen.push({
          method: req.method ?? '',
          path: req.url ?? '',
          status: answer.statusCode ?? 0,
          signature: req.headers['x-hub-signature'] as string | undefined,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let a: Instance;
let b: Instance;
let relay: Awaited<ReturnType<typeof startRelay>>;

beforeAll(async () => {
  a = await startOne('a', (port) => `http://127.0.0.1:${port}`);
  relay = await startRelay(() => b.url);
  b = await startOne('b', () => relay.url, {
    // No poll brings the post: the first fetch is the subscription's, the next one a day later.
    READER_POLL_MIN_MINUTES: '1440',
    READER_POLL_MAX_MINUTES: '1440',
  });
}, 180_000);

afterAll(async () => {
  for (const i of instances) {
    await i.murmur.stop();
    rmSync(i.dataDir, { recursive: true, force: true });
  }
  await relay?.close();
}, 60_000);

async function createUser(on: Instance, username: string): Promise<string> {
  const res = await fetch(`${on.url}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${on.murmur.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.test` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const unreadTitles = async (token: string): Promise<string[]> => {
  const auth = { authorization: `Bearer ${token}` };
  const ids = (await (
    await fetch(`${b.url}/feeds/v2/unread_entries.json`, { headers: auth })
  ).json()) as number[];
  if (ids.length === 0) return [];
  const entries = (await (
    await fetch(`${b.url}/feeds/v2/entries.json?ids=${ids.join(',')}`, { headers: auth })
  ).json()) as { title: string | null }[];
  return entries.map((e) => e.title ?? '');
};

test("a post on one Murmur reaches another Murmur's reader through the hub, with no poll between", async () => {
  const ada = await createUser(a, 'ada');
  const topic = `${a.url}/sites/ada/feed.xml`;
  await eventually(
    async () => ((await fetch(topic)).status === 200 ? true : undefined),
    "ada's site",
    60_000,
  );
  await xmlrpc(a.url, 'metaWeblog.newPost', [
    '0',
    'ada',
    ada,
    { title: 'Before', description: 'first' },
    true,
  ]);

  const bob = await createUser(b, 'bob');
  const subscribed = await fetch(`${b.url}/feeds/v2/subscriptions.json`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bob}`, 'content-type': 'application/json' },
    body: JSON.stringify({ feed_url: topic }),
  });
  expect([200, 201]).toContain(subscribed.status);
  // The subscription's own fetch brought what was there.
  await eventually(
    async () => ((await unreadTitles(bob)).includes('Before') ? true : undefined),
    'first fetch',
  );

  // A's hub verified B's callback: a GET with hub.mode=subscribe for this topic, answered 200.
  await eventually(
    async () =>
      relay.seen.some(
        (s) =>
          s.method === 'GET' &&
          s.path.startsWith('/feeds/v2/websub/') &&
          s.path.includes('hub.mode=subscribe') &&
          s.path.includes(`hub.topic=${encodeURIComponent(topic)}`) &&
          s.status === 200,
      )
        ? true
        : undefined,
    "the hub's verification of B's callback",
    60_000,
  );
  // The hub records the subscription just after the echo is read; a moment for that.
  await new Promise((r) => setTimeout(r, 1000));

  const before = relay.seen.length;
  const publishedAt = Date.now();
  await xmlrpc(a.url, 'metaWeblog.newPost', [
    '0',
    'ada',
    ada,
    { title: 'Pushed', description: 'second' },
    true,
  ]);
  await eventually(
    async () => ((await unreadTitles(bob)).includes('Pushed') ? true : undefined),
    'the push',
    60_000,
  );
  const latencyMs = Date.now() - publishedAt;

  // It came as a signed delivery to B's callback, which stored it (204; the relay records it as the
  // answer arrives, a moment after the entry is stored).
  const deliveries = await eventually(async () => {
    const posts = relay.seen
      .slice(before)
      .filter((s) => s.method === 'POST' && s.path.startsWith('/feeds/v2/websub/'));
    return posts.length > 0 ? posts : undefined;
  }, 'the delivery, seen at the relay');
  expect(deliveries.length).toBeGreaterThanOrEqual(1);
  expect(deliveries[0]!.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(deliveries[0]!.status).toBe(204);
  console.log(`websub: publish on A → unread on B in ${latencyMs} ms`);
}, 240_000);
