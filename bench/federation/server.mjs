#!/usr/bin/env node
// The system under test of the federation benchmark, in its own process: the federation service on the
// embedded store (file: in a temp dir, or memory:) and an in-process memory bus, identity's answers
// given by the platform's fake identity. Before it starts, its store is seeded with BENCH_FOLLOWERS
// remote followers of ada spread over the receiver hosts (BENCH_HOSTS, `127.0.0.1:port` list), each
// with its own inbox (no shared inbox: one signed delivery per follower), and a public post of hers.
// Started by run.mjs with `fork`; reports its URL over IPC and answers `publish`, `counts`, `stop`.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
async function load(path) {
  const file = join(root, path);
  if (!existsSync(file)) throw new Error(`${path} is missing: build first (npm run build)`);
  return import(pathToFileURL(file).href);
}
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
};
const { startFakeIdentity } = await load('libs/testing/dist/index.js');
const contracts = await load('libs/contracts/dist/index.js');
const { createFederationService } = await load('services/federation/dist/index.js');

const hosts = process.env.BENCH_HOSTS.split(',');
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS);
const SHARED = process.env.BENCH_SHARED === '1';
const storeUrl = process.env.BENCH_STORE === 'memory' ? 'memory:' : `file:${process.env.BENCH_DATA_DIR}`;
const logger = platform.createLogger({ service: 'bench', level: process.env.BENCH_LOG_LEVEL ?? 'warn' });
const port = Number(process.env.BENCH_PORT);
const publicUrl = `http://127.0.0.1:${port}`;

const bus = await platform.connectBus('memory:bench-federation', { service: 'bench', logger });
await startFakeIdentity(bus, { users: [{ id: 1, username: 'ada' }] });
const store = await platform.openStore(storeUrl, { service: 'federation' });

const BASE = contracts.federation.REMOTE_ID_BASE;
if ((await store.collection('actors').countDocuments({})) === 0) {
  for (let from = 0; from < FOLLOWERS; from += 1000) {
    const actors = [];
    const followers = [];
    for (let i = from; i < Math.min(FOLLOWERS, from + 1000); i++) {
      const host = hosts[i % hosts.length];
      const id = `http://${host}/users/u${i}`;
      actors.push({
        _id: BASE + 10_000_000 + i,
        actorId: id,
        handle: `u${i}@${host}`,
        name: `U${i}`,
        url: id,
        icon: '',
        inbox: `${id}/inbox`,
        ...(SHARED ? { sharedInbox: `http://${host}/inbox` } : {}),
        keyId: `${id}#main-key`,
        publicKeyPem: 'unused',
        fetchedAt: new Date(),
      });
      followers.push({
        _id: `1 ${BASE + 10_000_000 + i}`,
        userId: 1,
        actor: BASE + 10_000_000 + i,
        followId: `${id}#f`,
        createdAt: new Date(),
      });
    }
    await store.collection('actors').insertMany(actors);
    await store.collection('followers').insertMany(followers);
  }
}

const service = await platform.startService(createFederationService({ jobPollIntervalMs: 50 }), {
  env: {
    PUBLIC_URL: publicUrl,
    STORE_URL: storeUrl,
    BUS_URL: 'memory:bench-federation',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    DATA_DIR: process.env.BENCH_DATA_DIR,
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    FEDERATION_DELIVERY_CONCURRENCY: process.env.BENCH_DELIVERY_CONCURRENCY ?? '16',
    FEDERATION_HOST_CONCURRENCY: process.env.BENCH_HOST_CONCURRENCY ?? '4',
  },
  store,
  bus,
  logger,
  port,
  host: '127.0.0.1',
});

let nextPost = 1;

process.on('message', async (message) => {
  const msg = typeof message === 'string' ? { type: message } : message;
  if (msg.type === 'publish') {
    const id = nextPost++;
    await bus.publish(contracts.publishing.postPublished, {
      id,
      userId: 1,
      siteId: 1,
      url: `${publicUrl}/sites/ada/2026/11/21/post-${id}.html`,
      title: '',
      contentHtml: `<p>Post ${id} for everyone</p>`,
      contentText: `Post ${id} for everyone`,
      publishedAt: platform.formatOffsetTime(new Date()),
      photos: [],
      mentions: [],
      categories: [],
      revision: 1,
    });
    process.send({ published: id });
  } else if (msg.type === 'counts') {
    const jobs = await store
      .collection('jobs')
      .find({ type: 'federation.activity.deliver' }, { projection: { status: 1 } });
    const byStatus = {};
    for (const j of jobs) byStatus[j.status] = (byStatus[j.status] ?? 0) + 1;
    process.send({
      counts: { jobs: byStatus, interactions: await store.collection('interactions').countDocuments({}) },
    });
  } else if (msg.type === 'stop') {
    await service.stop();
    await store.close();
    await bus.close();
    process.send({ stopped: true }, () => process.exit(0));
  }
});
process.send({ url: service.url });
