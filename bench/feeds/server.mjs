#!/usr/bin/env node
// The system under test of the feeds benchmark, in its own process: identity, feeds and the gateway
// wired as in single-process mode (one in-memory bus), feeds on the embedded store. Before feeds
// starts, its store is seeded directly by bench/lib/feeds-data.mjs (users, sites, follows, posts: what
// the events would have stored), so feeds builds its index from the store exactly as after a restart. Started by run.mjs
// with `fork`; it reports its URLs over IPC and answers `memory` and `publish` requests.
import { performance } from 'node:perf_hooks';
import { HEAVY, POPULAR, seedFeedsStore, sizesFromEnv } from '../lib/feeds-data.mjs';
import { loadBuilt as load, sendMemory } from '../lib/server.mjs';

// What these scripts use of the libs: createLogger, loadConfig, formatOffsetTime (core); startService,
// connectBus, openStore (runtime); EmbeddedStore (store-embedded).
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
  ...(await load('libs/store-embedded/dist/index.js')),
};
const contracts = await load('libs/contracts/dist/index.js');
const { identityService } = await load('services/identity/dist/index.js');
const { createFeedsService, FeedsStore } = await load('services/feeds/dist/index.js');
const { createGateway, gatewayConfigSchema } = await load('gateway/dist/index.js');

const sizes = sizesFromEnv();
const { users: USERS, posts: POSTS, popularFollowers: POPULAR_FOLLOWERS } = sizes;
const dataDir = process.env.BENCH_DATA_DIR;
const storeKind = process.env.BENCH_STORE ?? 'file';
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn';
const logger = platform.createLogger({ service: 'bench', level: logLevel });
const publicUrl = 'http://murmur.bench';
const log = (...args) => console.error(...args);

// mongodb: BENCH_STORE_URL, a database on a MongoDB-wire server (bench/store/mongodb.mjs).
const storeUrl =
  storeKind === 'file'
    ? `file:${dataDir}`
    : storeKind === 'mongodb'
      ? process.env.BENCH_STORE_URL
      : `memory:bench-${process.pid}`;
const feedsStore = await platform.openStore(storeUrl, { service: 'feeds' });
log(`seeding the feeds store (${storeKind}): ${USERS} users, ${POSTS} posts…`);
const seeded = await seedFeedsStore(feedsStore, FeedsStore, sizes);
log(`  seeded in ${seeded.seconds.toFixed(1)} s (${seeded.follows} follow edges)`);

const bus = await platform.connectBus('memory:', { service: 'bench', logger });
const common = { PUBLIC_URL: publicUrl, LOG_LEVEL: logLevel, DATA_DIR: dataDir };
const identity = await platform.startService(identityService, {
  env: { ...common, MURMUR_ADMIN_TOKEN: 'bench-admin-token-0123456789', STORE_URL: 'memory:' },
  bus,
  logger,
  port: 0,
  host: '127.0.0.1',
});
const startedAt = performance.now();
const feeds = await platform.startService(createFeedsService(), {
  env: { ...common, STORE_URL: storeUrl },
  store: feedsStore,
  bus,
  logger,
  port: 0,
  host: '127.0.0.1',
});
const feedsStartMs = performance.now() - startedAt;
const config = platform.loadConfig(gatewayConfigSchema, {
  PUBLIC_URL: publicUrl,
  GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: logLevel,
});
const gateway = await createGateway({
  config,
  targets: { identity: identity.url, feeds: feeds.url },
  logger,
});
await gateway.listen({ port: 0, host: '127.0.0.1' });
const address = gateway.server.address();

/**
 * The two alternatives to the in-memory index, measured on the same seeded store (docs/adr/0010):
 * fan-out on read as a store query, and fan-out on write (one timeline entry per follower per post).
 */
async function compareDesigns() {
  const time = async (runs, once) => {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await once(i);
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    return { p50: samples[Math.floor(runs / 2)], max: samples[runs - 1] };
  };
  const followees = (await feedsStore.collection('follows').find({ followerId: HEAVY })).map(
    (e) => e.followeeId,
  );
  const authors = [HEAVY, ...followees];
  const readQuery = await time(5, () =>
    feedsStore
      .collection('posts')
      .find({ userId: { $in: authors }, visible: true }, { sort: { publishedAt: -1, _id: -1 }, limit: 20 }),
  );
  log(`  (compare: store query done, p50 ${readQuery.p50.toFixed(1)} ms)`);
  const timeline = feedsStore.collection('bench_timeline');
  await timeline.createIndex({ ownerId: 1 });
  const followers = (await feedsStore.collection('follows').find({ followeeId: POPULAR })).map(
    (e) => e.followerId,
  );
  const writeFanout = await time(3, (run) =>
    timeline.insertMany(
      followers.map((ownerId) => ({ ownerId, postId: 1_000_000 + run, publishedAt: new Date() })),
    ),
  );
  log(`  (compare: fan-out writes done, p50 ${writeFanout.p50.toFixed(1)} ms)`);
  // The heavy follower's timeline as fan-out on write would store it: every post of the people followed.
  const heavyPosts = await feedsStore
    .collection('posts')
    .find({ userId: { $in: authors } }, { projection: { publishedAt: 1 } });
  for (let i = 0; i < heavyPosts.length; i += 5000) {
    await timeline.insertMany(
      heavyPosts.slice(i, i + 5000).map((p) => ({ ownerId: -1, postId: p._id, publishedAt: p.publishedAt })),
    );
  }
  // Left in place: the benchmark's data directory is deleted afterwards.
  const writeRead = await time(5, () =>
    timeline.find({ ownerId: -1 }, { sort: { publishedAt: -1 }, limit: 20 }),
  );
  return { readQuery, writeFanout, writeRead, heavyEntries: heavyPosts.length, followers: followers.length };
}

let nextPostId = POSTS + 1;
process.on('message', async (message) => {
  if (message === 'memory') sendMemory();
  if (message === 'publish') {
    // As publishing announces a new post by the popular user.
    const id = nextPostId++;
    await bus.publish(contracts.publishing.postPublished, {
      id,
      userId: POPULAR,
      siteId: POPULAR,
      url: `https://u${POPULAR}.example/posts/${id}`,
      title: `Fresh ${id}`,
      contentHtml: `<p>Fresh ${id}</p>`,
      contentText: `Fresh ${id}`,
      publishedAt: platform.formatOffsetTime(new Date()),
      photos: [],
      mentions: [],
      categories: [],
    });
    process.send({ published: id });
  }
  if (message === 'compare') {
    process.send({ compare: await compareDesigns() });
  }
  if (message === 'stop') {
    await gateway.close();
    await feeds.stop();
    await identity.stop();
    await bus.close();
    await feedsStore.close();
    process.send({ stopped: true });
    process.exit(0);
  }
});

process.send({
  ready: true,
  gatewayUrl: `http://127.0.0.1:${address.port}`,
  feedsUrl: feeds.url,
  publicUrl,
  feedsStartMs,
  seedSeconds: seeded.seconds,
  users: USERS,
  posts: POSTS,
  heavy: `u${HEAVY}`,
  popular: `u${POPULAR}`,
  follower: `u${3 + POPULAR_FOLLOWERS - 1}`,
});
