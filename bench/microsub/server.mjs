#!/usr/bin/env node
// The system under test of the microsub benchmark, in its own process: the whole of Murmur as
// `npm start` runs it (startSingleProcess: every service and the gateway in one process, one in-memory
// bus, each service on the embedded store under DATA_DIR — the defaults). Before it starts, the feeds
// store is seeded directly by bench/lib/feeds-data.mjs, as bench/feeds/server.mjs seeds it (users, sites,
// follows, posts: what the events would have stored), so feeds builds its index from the store as after a restart. Then user 1
// (`u1`, following 2,000 others) is created through the admin API for a token, opens Microsub (which
// sets its read markers), and BENCH_UNREAD posts by people it follows are published on the bus, as
// publishing announces them. Started by run.mjs with `fork`; it reports over IPC and answers `memory`,
// `loadavg` and `stop`.
import { performance } from 'node:perf_hooks';
import { freePort, loadavg } from '../lib/cli.mjs';
import { HEAVY, seedFeedsStore, sizesFromEnv } from '../lib/feeds-data.mjs';
import { loadBuilt as load, sendMemory } from '../lib/server.mjs';

// What these scripts use of the libs: createLogger, loadConfig, formatOffsetTime (core); startService,
// connectBus, openStore (runtime); EmbeddedStore (store-embedded).
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
  ...(await load('libs/store-embedded/dist/index.js')),
};
const contracts = await load('libs/contracts/dist/index.js');
const { FeedsStore } = await load('services/feeds/dist/index.js');
const { startSingleProcess } = await load('cli/dist/index.js');

// The same data as bench/feeds/server.mjs, so both benchmarks measure the same timelines. User 1 (HEAVY,
// following 2,000 others) is the Microsub user: the first user identity creates.
const sizes = sizesFromEnv();
const { users: USERS, posts: POSTS, heavyFollows: HEAVY_FOLLOWS } = sizes;
const UNREAD = Number(process.env.BENCH_UNREAD ?? 300);
const dataDir = process.env.BENCH_DATA_DIR;
const storeKind = process.env.BENCH_STORE ?? 'file';
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn';
const publicUrl = 'http://murmur.bench';
const adminToken = 'bench-admin-token-0123456789abcdef';
const log = (...args) => console.error(...args);

const storeUrl = storeKind === 'file' ? `file:${dataDir}` : `memory:bench-${process.pid}`;
log(`seeding the feeds store (${storeKind}): ${USERS} users, ${POSTS} posts…`);
const seedingStore = await platform.openStore(storeUrl, { service: 'feeds' });
// Every seeded post is older than the Microsub user's first request (so read: the marker's rule).
const seeded = await seedFeedsStore(seedingStore, FeedsStore, sizes, { now: Date.now() - 60_000 });
// A `memory:<name>` store is shared by name within this process: keep it open for feeds to find.
if (storeKind === 'file') await seedingStore.close();
log(`  seeded in ${seeded.seconds.toFixed(1)} s (${seeded.follows} follow edges)`);

const startedAt = performance.now();
const murmur = await startSingleProcess({
  PATH: process.env.PATH,
  DATA_DIR: dataDir,
  STORE_URL: storeUrl,
  PUBLIC_URL: publicUrl,
  HOST: '127.0.0.1',
  PORT: String(await freePort()), // the launcher's PORT must be 1–65535: one free now
  GATEWAY_INTERNAL_PORT: '0',
  GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
  // One user makes every request of the benchmark; the store-backed limiter still runs on each.
  MICROSUB_REQUESTS_PER_MINUTE: '1000000',
  MURMUR_ADMIN_TOKEN: adminToken,
  LOG_LEVEL: logLevel,
});
const startMs = performance.now() - startedAt;
log(`  started in ${Math.round(startMs)} ms at ${murmur.url}`);

async function call(method, path, { token, body } = {}) {
  const res = await fetch(`${murmur.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

// The first user identity creates gets id 1: the seeded user who follows 2,000 others.
const created = await call('POST', '/admin/users', {
  token: adminToken,
  body: { username: `u${HEAVY}`, email: 'u1@bench.example', name: 'User 1' },
});
if (created.id !== HEAVY) throw new Error(`identity gave the bench user id ${created.id}, not ${HEAVY}`);
const token = created.token;

// The first Microsub request sets both tracked channels' read markers to now: everything seeded is read.
await call('GET', '/microsub?action=channels', { token });

const bus = await platform.connectBus('memory:', {
  service: 'bench',
  logger: platform.createLogger({ service: 'bench', level: logLevel }),
});
let nextPostId = POSTS + 1;
const unreadIds = [];
await new Promise((r) => setTimeout(r, 1100)); // into the next second: after the marker
for (let i = 0; i < UNREAD; i++) {
  const id = nextPostId++;
  const userId = 3 + (i % HEAVY_FOLLOWS); // someone u1 follows
  unreadIds.push(String(id));
  await bus.publish(contracts.publishing.postPublished, {
    id,
    userId,
    siteId: userId,
    url: `https://u${userId}.example/posts/${id}`,
    title: i % 3 === 0 ? `Fresh ${id}` : '',
    contentHtml: `<p>Fresh ${id} by u${userId}: ${'lorem ipsum dolor sit amet '.repeat(6)}</p>`,
    contentText: `Fresh ${id} by u${userId}: ${'lorem ipsum dolor sit amet '.repeat(6)}`,
    publishedAt: platform.formatOffsetTime(new Date()),
    photos: [],
    mentions: [],
    categories: [],
  });
}
// Until feeds has indexed and stored them all (its consumers run asynchronously; the count comes from
// its index, the timeline's items from its store).
const deadline = Date.now() + 120_000;
for (;;) {
  const channels = await call('GET', '/microsub?action=channels', { token });
  const unread = channels.channels.find((c) => c.uid === 'default')?.unread;
  const page = await call('GET', '/microsub?action=timeline&channel=default&limit=1', { token });
  if (unread === UNREAD && page.items[0]?._id === unreadIds[unreadIds.length - 1]) break;
  if (Date.now() > deadline)
    throw new Error(`the default channel shows ${unread} unread, not ${UNREAD}, or not the newest post`);
  await new Promise((r) => setTimeout(r, 200));
}

process.on('message', async (message) => {
  if (message === 'memory') sendMemory();
  if (message === 'stop') {
    await bus.close();
    await murmur.stop();
    process.send({ stopped: true });
    process.exit(0);
  }
});

process.send({
  ready: true,
  gatewayUrl: murmur.url.replace('0.0.0.0', '127.0.0.1'),
  token,
  unreadIds,
  startMs,
  seedSeconds: seeded.seconds,
  follows: seeded.follows,
  users: USERS,
  posts: POSTS,
  loadavg: loadavg(),
});
