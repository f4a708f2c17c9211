#!/usr/bin/env node
// The system under test of the Micropub benchmark, in its own process: identity, publishing, feeds and
// the gateway wired as in single-process mode (one in-memory bus), publishing and feeds on the embedded
// store (file: in a temporary directory by default). Before feeds starts, its store is seeded with the
// author `ada` and FOLLOWERS users following her (what the events would have stored: users, sites,
// follows), so a post of hers fans out to that many timelines. Started by run.mjs with `fork`; it reports
// the gateway's URL, ada's app token and the followers' usernames over IPC, and answers `inject` (text
// notes answered in-process), `memory` and `stop`.
import { performance } from 'node:perf_hooks';
import { loadBuilt as load, sendMemory } from '../lib/server.mjs';

// What this script uses of the libs: createLogger, loadConfig (core); startService, connectBus,
// openStore (runtime).
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
};
const { identityService } = await load('services/identity/dist/index.js');
const { publishingService } = await load('services/publishing/dist/index.js');
const { createFeedsService, FeedsStore } = await load('services/feeds/dist/index.js');
const { createGateway, gatewayConfigSchema } = await load('gateway/dist/index.js');

const dataDir = process.env.BENCH_DATA_DIR;
const storeKind = process.env.BENCH_STORE ?? 'file';
const followers = Number(process.env.BENCH_FOLLOWERS ?? '1000');
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn';
const logger = platform.createLogger({ service: 'bench', level: logLevel });
const ADMIN = 'bench-admin-token-0123456789';
const log = (...args) => console.error(...args);

const gatewayPort = Number(process.env.BENCH_GATEWAY_PORT);
const publicUrl = `http://127.0.0.1:${gatewayPort}`;
const storeUrl = storeKind === 'file' ? `file:${dataDir}` : `memory:bench-${process.pid}`;

// ada is identity's first user (id 1) and publishing's first site (id 1); followers are users 2…n+1.
const feedsStore = await platform.openStore(storeUrl, { service: 'feeds' });
await new FeedsStore(feedsStore).createIndexes();
const users = [{ id: 1, username: 'ada' }];
for (let i = 0; i < followers; i++) users.push({ id: i + 2, username: `f${i + 2}` });
await feedsStore.collection('users').insertMany(
  users.map((u) => ({
    _id: u.id,
    username: u.username,
    usernameKey: u.username,
    name: u.username,
    avatar: '',
    rev: 0,
    graphVersion: 0,
  })),
);
await feedsStore.collection('sites').insertMany(
  users.map((u) => ({
    _id: u.id,
    userId: u.id,
    username: u.username,
    url: `${publicUrl}/sites/${u.username}/`,
    isDefault: true,
    title: u.username,
    description: '',
    rev: 0,
  })),
);
await feedsStore
  .collection('follows')
  .insertMany(users.slice(1).map((u) => ({ followerId: u.id, followeeId: 1, createdAt: new Date(0) })));
log(`feeds seeded: ada and ${followers} followers`);

const bus = await platform.connectBus('memory:', { service: 'bench', logger });
const common = {
  PUBLIC_URL: publicUrl,
  LOG_LEVEL: logLevel,
  DATA_DIR: dataDir,
  MURMUR_ADMIN_TOKEN: ADMIN,
  // One client, one user, sequential requests.
  PUBLIC_GETS_PER_MINUTE: '1000000',
  MICROPUB_REQUESTS_PER_MINUTE: '1000000',
  XMLRPC_CALLS_PER_MINUTE: '1000000',
};
const start = (def, env = {}, store) =>
  platform.startService(def, {
    env: { ...common, STORE_URL: 'memory:', ...env },
    ...(store ? { store } : {}),
    bus,
    logger,
    port: 0,
    host: '127.0.0.1',
  });

const publishingStore = await platform.openStore(storeUrl, { service: 'publishing' });
const identity = await start(identityService);
const publishing = await start(publishingService, { STORE_URL: storeUrl }, publishingStore);
const feeds = await start(createFeedsService(), { STORE_URL: storeUrl }, feedsStore);
const gateway = await createGateway({
  config: platform.loadConfig(gatewayConfigSchema, {
    PUBLIC_URL: publicUrl,
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: logLevel,
  }),
  targets: { identity: identity.url, publishing: publishing.url, feeds: feeds.url },
  logger,
});
await gateway.listen({ port: gatewayPort, host: '127.0.0.1' });

const created = await (
  await fetch(`${identity.url}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', email: 'ada@example.com', name: 'Ada Lovelace' }),
  })
).json();
if (created.id !== 1) throw new Error(`ada should be user 1, is ${created.id}`);
let site;
for (let i = 0; i < 200 && !site; i++) {
  const res = await fetch(`${publishing.url}/admin/sites?username=ada`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  site = (await res.json()).sites?.[0];
  if (!site) await new Promise((r) => setTimeout(r, 25));
}
if (!site || site.id !== 1) throw new Error(`ada's site should be site 1: ${JSON.stringify(site)}`);

process.on('message', async (message) => {
  if (message === 'memory') sendMemory();
  if (message && typeof message === 'object' && 'inject' in message) {
    // The same text note answered by the publishing app in-process (no sockets, no gateway): what the
    // service itself costs, apart from the machine's network stack and the proxy.
    const samples = [];
    const { n, warmup, token } = message.inject;
    for (let i = 0; i < warmup + n; i++) {
      const started = performance.now();
      const res = await publishing.app.inject({
        method: 'POST',
        url: '/micropub',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `h=entry&content=In-process+${i}`,
      });
      if (res.statusCode !== 201) throw new Error(`in-process POST /micropub: ${res.statusCode} ${res.body}`);
      if (i >= warmup) samples.push(performance.now() - started);
    }
    process.send({ injected: samples });
  }
  if (message === 'stop') {
    await gateway.close();
    await feeds.stop();
    await publishing.stop();
    await identity.stop();
    await bus.close();
    await publishingStore.close();
    await feedsStore.close();
    process.send({ stopped: true });
    process.exit(0);
  }
});

process.send({
  ready: true,
  gatewayUrl: publicUrl,
  token: created.token,
  followers: users.slice(1).map((u) => u.username),
});
