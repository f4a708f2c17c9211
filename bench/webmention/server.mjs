#!/usr/bin/env node
// The system under test of the webmention benchmark, in its own process: the webmention service on
// the embedded store (file: in a temp dir, or memory:) and an in-process memory bus. Before it starts,
// its store is seeded with 5,000 verified mentions of one target (what verifications would have
// stored). A site is announced on the bus as publishing would. Started by run.mjs with `fork`; it
// reports its URL over IPC and answers `counts` (jobs and mentions by status) and `stop`.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
async function load(path) {
  const file = join(root, path);
  if (!existsSync(file)) throw new Error(`${path} is missing: build first (npm run build)`);
  return import(pathToFileURL(file).href);
}

// What these scripts use of the libs: createLogger, loadConfig, formatOffsetTime (core); startService,
// connectBus, openStore (runtime); EmbeddedStore (store-embedded).
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
  ...(await load('libs/store-embedded/dist/index.js')),
};
const contracts = await load('libs/contracts/dist/index.js');
const { createWebmentionService, WebmentionStore } = await load('services/webmention/dist/index.js');

const SEEDED = Number(process.env.BENCH_SEEDED ?? 5000);
const TARGET = process.env.BENCH_TARGET;
const dataDir = process.env.BENCH_DATA_DIR;
const storeUrl = process.env.BENCH_STORE === 'memory' ? 'memory:' : `file:${dataDir}`;
const logger = platform.createLogger({ service: 'bench', level: process.env.BENCH_LOG_LEVEL ?? 'warn' });

const store = await platform.openStore(storeUrl, { service: 'webmention' });
const wm = new WebmentionStore(store);
await wm.createIndexes();
const targetKey = TARGET.slice(new URL(TARGET).protocol.length);
const base = Date.parse('2026-01-01T00:00:00Z');
// A restart on the same file store (run.mjs's queued phase) finds the seed already there.
const seeded = (await store.collection('mentions').countDocuments({ _id: 'seed-0' })) > 0;
for (let from = 0; !seeded && from < SEEDED; from += 1000) {
  const docs = [];
  for (let i = from; i < Math.min(SEEDED, from + 1000); i++) {
    const source = `https://s${i % 50}.example/reply/${i}`;
    docs.push({
      _id: `seed-${i}`,
      source,
      target: TARGET,
      targetKey,
      sourceHost: `s${i % 50}.example`,
      targetUserId: 1,
      status: 'verified',
      visible: true,
      wmId: 1_000_000 + i,
      rev: 1,
      shownAtRev: 1,
      type: ['reply', 'like', 'repost', 'mention'][i % 4],
      url: source,
      author: {
        name: `Person ${i}`,
        url: `https://s${i % 50}.example/`,
        photo: `https://s${i % 50}.example/p.jpg`,
      },
      contentHtml:
        i % 4 === 0 ? `<p>Reply number ${i}, with <a href="https://x.example/">a link</a>.</p>` : '',
      contentText: i % 4 === 0 ? `Reply number ${i}, with a link.` : '',
      published: new Date(base + i * 60_000),
      publishedGiven: true,
      receivedAt: new Date(base + i * 60_000 + 5_000),
      fingerprint: `f${i}`,
      createdAt: new Date(base + i * 60_000),
      updatedAt: new Date(base + i * 60_000),
    });
  }
  await store.collection('mentions').insertMany(docs);
}
if (!seeded) await store.collection('targets').insertOne({ _id: targetKey, rev: 1 });

const bus = await platform.connectBus('memory:webmention-bench', { service: 'bench', logger });
const running = await platform.startService(
  createWebmentionService({ runJobs: process.env.BENCH_RUN_JOBS !== '0' }),
  {
    env: {
      PUBLIC_URL: process.env.BENCH_PUBLIC_URL,
      STORE_URL: storeUrl,
      BUS_URL: 'memory:webmention-bench',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      OUTBOUND_ALLOW_HOSTS: 'localhost',
      WEBMENTION_PER_SOURCE_HOST_PER_HOUR: '1000000000',
      WEBMENTION_PER_IP_PER_HOUR: '1000000000',
      WEBMENTION_READS_PER_IP_PER_MINUTE: '1000000000',
      WEBMENTION_VERIFY_CONCURRENCY: process.env.BENCH_VERIFY_CONCURRENCY ?? '16',
    },
    store,
    bus,
    logger,
    port: 0,
    host: '127.0.0.1',
  },
);
const host = new URL(TARGET).hostname;
await bus.publish(contracts.publishing.siteCreated, {
  site: {
    id: 1,
    userId: 1,
    username: 'ada',
    host,
    url: `https://${host}/`,
    isDefault: true,
    createdAt: new Date().toISOString(),
  },
});
for (let i = 0; i < 200 && !(await store.collection('sites').findOne({ _id: 1 })); i++) {
  await new Promise((r) => setTimeout(r, 20));
}

process.on('message', async (message) => {
  if (message?.touch) {
    // What a verification does to a target: its revision moves on (a new ETag, nothing cached).
    await wm.bumpTarget(message.touch.slice(new URL(message.touch).protocol.length));
    process.send({ touched: true });
  } else if (message === 'counts') {
    const jobs = store.collection('jobs');
    const mentions = store.collection('mentions');
    const count = (c, f) => c.countDocuments(f);
    const type = 'webmention.mention.verify';
    process.send({
      counts: {
        queued: await count(jobs, { type, status: 'queued' }),
        running: await count(jobs, { type, status: 'running' }),
        done: await count(jobs, { type, status: 'done' }),
        dead: await count(jobs, { type, status: 'dead' }),
        verified: await count(mentions, { status: 'verified', wmId: { $lt: 1_000_000 } }),
        records:
          (await count(mentions, { wmId: { $exists: false } })) +
          (await count(mentions, { wmId: { $lt: 1_000_000 } })),
      },
    });
  } else if (message === 'stop') {
    await running.stop();
    await bus.close();
    await store.close();
    process.send({ stopped: true });
    process.exit(0);
  }
});
process.send({ url: running.url });
