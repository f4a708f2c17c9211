#!/usr/bin/env node
// The system under test of the post-list benchmark, in its own process: identity, publishing and the
// gateway wired as in single-process mode (one in-memory bus), publishing on the embedded store (file:
// in a temporary directory by default). Started by run.mjs with `fork`; it reports the gateway's URL,
// a user's token and site over IPC, and answers `grow` (add posts to the site, written to publishing's
// store as its domain writes them), `examined` (documents publishing's store has read from `posts`),
// `inject` (requests answered in-process), `memory` and `stop`.
import { performance } from 'node:perf_hooks';
import { loadBuilt as load, sendMemory } from '../lib/server.mjs';

// What this script uses of the libs: createLogger, loadConfig (core); startService, connectBus,
// openStore (runtime); documentsExamined (store-embedded).
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
  ...(await load('libs/store-embedded/dist/index.js')),
};
const { identityService } = await load('services/identity/dist/index.js');
const { publishingService } = await load('services/publishing/dist/index.js');
const { createGateway, gatewayConfigSchema } = await load('gateway/dist/index.js');

const dataDir = process.env.BENCH_DATA_DIR;
const storeKind = process.env.BENCH_STORE ?? 'file';
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn';
const logger = platform.createLogger({ service: 'bench', level: logLevel });
const ADMIN = 'bench-admin-token-0123456789';
const log = (...args) => console.error(...args);

const bus = await platform.connectBus('memory:', { service: 'bench', logger });
const gatewayPort = Number(process.env.BENCH_GATEWAY_PORT);
const publicUrl = `http://127.0.0.1:${gatewayPort}`;
const common = {
  PUBLIC_URL: publicUrl,
  LOG_LEVEL: logLevel,
  DATA_DIR: dataDir,
  MURMUR_ADMIN_TOKEN: ADMIN,
  // The benchmark's sequential requests come from one address and one user.
  PUBLIC_GETS_PER_MINUTE: '1000000',
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

const storeUrl = storeKind === 'file' ? `file:${dataDir}` : `memory:bench-${process.pid}`;
const publishingStore = await platform.openStore(storeUrl, { service: 'publishing' });
const identity = await start(identityService);
const publishing = await start(publishingService, { STORE_URL: storeUrl }, publishingStore);
const gateway = await createGateway({
  config: platform.loadConfig(gatewayConfigSchema, {
    PUBLIC_URL: publicUrl,
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: logLevel,
  }),
  targets: { identity: identity.url, publishing: publishing.url },
  logger,
});
await gateway.listen({ port: gatewayPort, host: '127.0.0.1' });

// A user, and the default site publishing creates for them.
const created = await (
  await fetch(`${identity.url}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', email: 'ada@example.com', name: 'Ada Lovelace' }),
  })
).json();
let site;
for (let i = 0; i < 200 && !site; i++) {
  const res = await fetch(`${publishing.url}/admin/sites?username=ada`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  site = (await res.json()).sites?.[0];
  if (!site) await new Promise((r) => setTimeout(r, 25));
}
if (!site) throw new Error('publishing never created the default site');

// Posts as publishing's domain stores them (services/publishing/src/store.ts, PostDoc): one in twenty a
// draft, one in two hundred scheduled a year ahead, the rest published over the last ten years, in the
// order they were written; the categories editors made first (`grow` is called after a few real posts).
const CATEGORIES = ['Notes', 'Travel', 'Engines', 'Poetry', 'Letters'];
const WORDS = 'the engine weaves algebraic patterns just as the loom weaves flowers and leaves'.split(' ');
let made = 0;
const siteUrl = `${publicUrl}/sites/ada/`;

function postDoc(i, now) {
  const status = i % 20 === 7 ? 'draft' : i % 200 === 3 ? 'scheduled' : 'published';
  // Spread over ten years, oldest first; scheduled ones ahead.
  const date =
    status === 'scheduled'
      ? new Date(now + 86_400_000 * (1 + (i % 365)))
      : new Date(now - 10 * 365 * 86_400_000 + i * 6_000_000);
  const words = Array.from({ length: 80 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]);
  const text = `${words.slice(0, 40).join(' ')}.\n\n${words.slice(40).join(' ')}.`;
  const y = date.getUTCFullYear();
  const m = String(date.getUTCMonth() + 1).padStart(2, '0');
  const d = String(date.getUTCDate()).padStart(2, '0');
  const path = status === 'draft' ? null : `${y}/${m}/${d}/post-${i}.html`;
  return {
    _id: 1_000_000 + i,
    userId: created.id,
    siteId: site.id,
    title: `Post ${i}: ${words[0]} ${words[1]} ${words[2]}`,
    body: text,
    bodyFormat: 'text',
    more: '',
    summary: '',
    slug: '',
    tags: [],
    contentHtml: `<p>${words.slice(0, 40).join(' ')}.</p>\n<p>${words.slice(40).join(' ')}.</p>`,
    contentText: text,
    photos: [],
    mentions: [],
    categories: [CATEGORIES[i % CATEGORIES.length]],
    status,
    date,
    dateGiven: true,
    path,
    ...(path ? { permalinkKey: `${site.id}/${path}` } : {}),
    firstPublishedAt: status === 'published' ? date : null,
    createdAt: date,
    modifiedAt: date,
    revision: 1,
  };
}

async function grow(to) {
  const started = performance.now();
  const posts = publishingStore.collection('posts');
  const now = Date.now();
  while (made < to) {
    const batch = [];
    for (let i = made; i < Math.min(to, made + 1000); i++) batch.push(postDoc(i, now));
    await posts.insertMany(batch);
    made += batch.length;
  }
  return { posts: made, ms: Math.round(performance.now() - started) };
}

process.send({
  gatewayUrl: publicUrl,
  publishingUrl: publishing.url,
  token: created.token,
  siteId: site.id,
  siteUrl,
  categories: CATEGORIES,
});

process.on('message', async (message) => {
  if (message === 'memory') sendMemory();
  if (message && typeof message === 'object' && 'inject' in message) {
    // The same requests answered by the publishing app in-process (no sockets, no gateway): what the
    // service itself costs, apart from the machine's network stack and the proxy.
    const samples = [];
    const { request, n, warmup } = message.inject;
    for (let i = 0; i < warmup + n; i++) {
      const started = performance.now();
      const res = await publishing.app.inject(request);
      if (res.statusCode !== 200 || res.body.includes('<fault>'))
        throw new Error(`${request.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (i >= warmup) samples.push(performance.now() - started);
    }
    process.send({ injected: samples });
  }
  if (message === 'examined') process.send({ examined: platform.documentsExamined?.('posts') ?? null });
  if (message && typeof message === 'object' && 'grow' in message) {
    try {
      process.send({ grown: await grow(message.grow) });
    } catch (err) {
      log(err);
      process.send({ grown: { error: String(err) } });
    }
  }
  if (message === 'stop') {
    await gateway.close();
    await publishing.stop();
    await identity.stop();
    await publishingStore.close();
    await bus.close();
    process.send({ stopped: true });
    process.exit(0);
  }
});
