#!/usr/bin/env node
// The system under test of the websub benchmark, in its own process: the websub service on the
// embedded store (file: in a temp dir, or memory:) and an in-process memory bus, publishing's
// `publishing.site.get` answered here, and the feed read from a stand-in instead of the gateway (the
// benchmark measures fan-out, not feed rendering). Before it starts, its store is seeded with
// BENCH_SUBSCRIBERS verified subscriptions (each with a secret: every delivery is signed) to ada's
// feed.xml, spread over the callback hosts (BENCH_HOSTS, `127.0.0.1:port` list).
// Started by run.mjs with `fork`; reports its URL over IPC and answers `publish`, `counts`, `stop`.
import { createHash } from 'node:crypto';
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
const { createWebsubService } = await load('services/websub/dist/index.js');

const hosts = process.env.BENCH_HOSTS.split(',');
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS);
const storeUrl = process.env.BENCH_STORE === 'memory' ? 'memory:' : `file:${process.env.BENCH_DATA_DIR}`;
const logger = platform.createLogger({ service: 'bench', level: process.env.BENCH_LOG_LEVEL ?? 'warn' });
const port = Number(process.env.BENCH_PORT);
const publicUrl = `http://127.0.0.1:${port}`;
const topic = `${publicUrl}/sites/ada/feed.xml`;

const bus = await platform.connectBus('memory:bench-websub', { service: 'bench', logger });
await startFakeIdentity(bus, { users: [{ id: 1, username: 'ada' }] });
await bus.handle(contracts.publishing.siteGet, async () => ({
  site: {
    id: 1,
    userId: 1,
    username: 'ada',
    host: '127.0.0.1',
    url: `${publicUrl}/sites/ada/`,
    isDefault: true,
    createdAt: platform.formatOffsetTime(new Date()),
  },
}));
const store = await platform.openStore(storeUrl, { service: 'websub' });

// The feed as the gateway would serve it: about 20 items, a new first item per post.
let version = 0;
const item = (n) =>
  `<item><title>Post ${n}</title><link>${publicUrl}/sites/ada/2026/12/02/post-${n}.html</link>` +
  `<description>${'&lt;p&gt;Some words of the post. '.repeat(20)}&lt;/p&gt;</description></item>`;
const feedXml = () =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>ada</title>` +
  Array.from({ length: 20 }, (_, i) => item(version - i)).join('\n') +
  `</channel></rss>\n`;
const ownFeeds = {
  async get() {
    return {
      status: 200,
      contentType: 'application/rss+xml; charset=utf-8',
      etag: undefined,
      body: Buffer.from(feedXml()),
    };
  },
};

const subscriptionId = (t, callback) =>
  createHash('sha256').update(t).update('\u0000').update(callback).digest('base64url').slice(0, 32);
if ((await store.collection('subscriptions').countDocuments({})) === 0) {
  const now = new Date();
  for (let from = 0; from < SUBSCRIBERS; from += 1000) {
    const docs = [];
    for (let i = from; i < Math.min(SUBSCRIBERS, from + 1000); i++) {
      const host = hosts[i % hosts.length];
      const callback = `http://${host}/push/${i}`;
      docs.push({
        _id: subscriptionId(topic, callback),
        topic,
        callback,
        callbackHost: host,
        secret: `secret-${i}`,
        leaseSeconds: 864000,
        expiresAt: new Date(now.getTime() + 864000_000),
        createdAt: now,
        updatedAt: now,
      });
    }
    await store.collection('subscriptions').insertMany(docs);
  }
}

const service = await platform.startService(createWebsubService({ jobPollIntervalMs: 50, ownFeeds }), {
  env: {
    PUBLIC_URL: publicUrl,
    STORE_URL: storeUrl,
    BUS_URL: 'memory:bench-websub',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    DATA_DIR: process.env.BENCH_DATA_DIR,
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    WEBSUB_DELIVERY_CONCURRENCY: process.env.BENCH_DELIVERY_CONCURRENCY ?? '32',
    WEBSUB_HOST_CONCURRENCY: process.env.BENCH_HOST_CONCURRENCY ?? '8',
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
    version = id;
    await bus.publish(contracts.publishing.postPublished, {
      id,
      userId: 1,
      siteId: 1,
      url: `${publicUrl}/sites/ada/2026/12/02/post-${id}.html`,
      title: `Post ${id}`,
      contentHtml: `<p>Post ${id}</p>`,
      contentText: `Post ${id}`,
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
      .find({ type: 'websub.content.deliver' }, { projection: { status: 1 } });
    const byStatus = {};
    for (const j of jobs) byStatus[j.status] = (byStatus[j.status] ?? 0) + 1;
    process.send({ counts: { jobs: byStatus } });
  } else if (msg.type === 'stop') {
    await service.stop();
    await store.close();
    await bus.close();
    process.send({ stopped: true }, () => process.exit(0));
  }
});
process.send({ url: service.url });
