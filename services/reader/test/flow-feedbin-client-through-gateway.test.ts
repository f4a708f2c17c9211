// A Feedbin client's session through the gateway, against the real identity service: login check
// with Basic auth, subscribe, sync following Links to the end, a `since` sync from the Date header,
// marking read in 1000-id chunks, starring, and conditional GETs answered 304.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startTestGateway, type TestGateway } from '@murmur/gateway/testing';
import { identityService } from '@murmur/identity';
import { type Bus } from '@murmur/bus';
import { connectBus } from '@murmur/runtime';
import { send, testLogger, testServices, type TestServices, type WireResponse } from '@murmur/testing';
import { createReaderService, type ReaderContext } from '../src/index.js';
import { rssWithItems, startFeedServer, type FeedServer } from './feed-server.js';

const PUBLIC_URL = 'http://murmur.test';
const ADMIN = 'flow-admin-token-0123456789abcdef';

let bus: Bus;
let services: TestServices;
let readerCtx: ReaderContext;
let gateway: TestGateway;
let gatewayUrl: string;
let feeds: FeedServer;
let dataDir: string;
let auth: Record<string, string>;

const items = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ guid: `${prefix}${n - i}`, title: `${prefix} ${n - i}` }));

function client(method: string, path: string, payload?: object, headers: Record<string, string> = {}) {
  const url = path.startsWith(PUBLIC_URL) ? path.slice(PUBLIC_URL.length) : path;
  return send(gatewayUrl, { method, url, headers: { ...auth, ...headers }, ...(payload ? { payload } : {}) });
}

function next(res: WireResponse): string | undefined {
  const header = res.headers.links as string | undefined;
  const link = header?.split(', ').find((part) => part.split('; ')[1] === 'rel="next"');
  return link?.split('; ')[0]!.slice(1, -1);
}

beforeAll(async () => {
  const logger = testLogger();
  dataDir = mkdtempSync(join(tmpdir(), 'murmur-flow-'));
  bus = await connectBus(`memory:flow-${randomUUID()}`, { service: 'flow', logger });
  services = testServices({ bus, logger, env: { PUBLIC_URL, LOG_LEVEL: 'silent', DATA_DIR: dataDir } });
  const identity = await services.start(identityService, {
    store: 'identity',
    env: { MURMUR_ADMIN_TOKEN: ADMIN },
  });
  const reader = await services.start(
    createReaderService({ schedulerIntervalMs: 0, jobPollIntervalMs: 50, onContext: (c) => (readerCtx = c) }),
    { store: 'reader', env: { OUTBOUND_ALLOW_HOSTS: '127.0.0.1' } },
  );
  gateway = await startTestGateway({
    targets: { identity: identity.url, reader: reader.url },
    logger,
    publicUrl: PUBLIC_URL,
    env: { LOG_LEVEL: 'silent' },
  });
  gatewayUrl = gateway.url;
  feeds = await startFeedServer();
  for (const name of ['a', 'b', 'c'])
    feeds.set(`/${name}.xml`, { body: rssWithItems(name.toUpperCase(), items(name, 500)) });
});

afterAll(async () => {
  await gateway.close();
  await services.stop();
  await bus.close();
  await feeds.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function idle() {
  const jobs = readerCtx.store.raw.collection('jobs');
  for (let i = 0; i < 500; i++) {
    if ((await jobs.countDocuments({ status: { $in: ['queued', 'running'] } })) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('jobs did not finish');
}

test('a Feedbin client session', async () => {
  // An account and an app token from identity's operator API, through the gateway.
  const created = await send(gatewayUrl, {
    method: 'POST',
    url: '/admin/users',
    headers: { authorization: `Bearer ${ADMIN}` },
    payload: { username: 'nina', email: 'nina@example.com' },
  });
  expect(created.statusCode).toBe(201);
  const { token } = created.json() as { token: string };
  auth = { authorization: `Basic ${Buffer.from(`nina:${token}`).toString('base64')}` };

  // Login check, exactly 200.
  expect((await client('GET', '/feeds/v2/authentication.json')).statusCode).toBe(200);
  const wrong = await send(gatewayUrl, {
    url: '/feeds/v2/authentication.json',
    headers: { authorization: `Basic ${Buffer.from('nina:nope').toString('base64')}` },
  });
  expect(wrong.statusCode).toBe(401);

  // Subscribe (one of them twice: 302 with the same Location).
  const subs = [];
  for (const name of ['a', 'b', 'c']) {
    const res = await client('POST', '/feeds/v2/subscriptions.json', { feed_url: feeds.url(`/${name}.xml`) });
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toMatch(new RegExp(`^${PUBLIC_URL}/feeds/v2/subscriptions/\\d+\\.json$`));
    subs.push(res.json());
  }
  expect(
    (await client('POST', '/feeds/v2/subscriptions.json', { feed_url: feeds.url('/a.xml') })).statusCode,
  ).toBe(302);

  // Full sync: follow Links from page 1 to the end (per_page=75, as one client does).
  let url: string | undefined = '/feeds/v2/entries.json?per_page=75';
  const seen = new Set<number>();
  let pages = 0;
  let lastDate = '';
  while (url) {
    const res = await client('GET', url);
    expect(res.statusCode).toBe(200);
    expect(res.headers.links).toBe(res.headers.link);
    for (const e of res.json() as Array<{ id: number }>) seen.add(e.id);
    lastDate ||= res.headers.date as string;
    url = next(res);
    pages++;
  }
  expect(seen.size).toBe(1500);
  expect(pages).toBe(20);
  // One page past the end is a 404 (clients stop there).
  expect((await client('GET', '/feeds/v2/entries.json?per_page=75&page=21')).statusCode).toBe(404);

  // Mark everything unread, then read, in 1000-id chunks (bodies as the client sends them).
  const all = [...seen];
  for (let i = 0; i < all.length; i += 1000) {
    const res = await client('POST', '/feeds/v2/unread_entries.json', {
      unread_entries: all.slice(i, i + 1000),
    });
    expect(res.statusCode).toBe(200);
  }
  const unread = await client('GET', '/feeds/v2/unread_entries.json');
  expect(unread.json()).toHaveLength(1500);
  const unreadEtag = unread.headers.etag as string;
  expect(
    (await client('GET', '/feeds/v2/unread_entries.json', undefined, { 'if-none-match': unreadEtag }))
      .statusCode,
  ).toBe(304);
  for (let i = 0; i < all.length; i += 1000) {
    const res = await client('DELETE', '/feeds/v2/unread_entries.json', {
      unread_entries: all.slice(i, i + 1000),
    });
    expect(res.json()).toHaveLength(Math.min(1000, all.length - i));
  }
  const afterRead = await client('GET', '/feeds/v2/unread_entries.json', undefined, {
    'if-none-match': unreadEtag,
  });
  expect(afterRead.statusCode).toBe(200);
  expect(afterRead.json()).toEqual([]);

  // Star one.
  expect(
    (await client('POST', '/feeds/v2/starred_entries.json', { starred_entries: [all[0]] })).json(),
  ).toEqual([all[0]]);
  const starred = await client('GET', '/feeds/v2/starred_entries.json');
  expect(starred.json()).toEqual([all[0]]);
  expect(
    (
      await client('GET', '/feeds/v2/starred_entries.json', undefined, {
        'if-none-match': starred.headers.etag as string,
      })
    ).statusCode,
  ).toBe(304);

  // A new entry arrives; the next sync uses the previous Date as since and gets it (and it is unread).
  feeds.set('/b.xml', { body: rssWithItems('B', [{ guid: 'fresh', title: 'Fresh' }, ...items('b', 500)]) });
  expect((await client('POST', `/feeds/v2/subscriptions/${subs[1].id}/update.json`)).statusCode).toBe(200);
  await idle();
  const since = new Date(lastDate).toISOString();
  const delta = await client('GET', `/feeds/v2/entries.json?since=${encodeURIComponent(since)}&per_page=100`);
  expect((delta.json() as Array<{ title: string }>).map((e) => e.title)).toContain('Fresh');
  const fresh = (delta.json() as Array<{ id: number; title: string }>).find((e) => e.title === 'Fresh')!;
  expect((await client('GET', '/feeds/v2/unread_entries.json')).json()).toEqual([fresh.id]);

  // Missing articles by ids= in chunks of 100 with mode=extended.
  const byIds = await client(
    'GET',
    `/feeds/v2/entries.json?ids=${all.slice(0, 100).join(',')}&mode=extended`,
  );
  expect(byIds.json()).toHaveLength(100);
});
