#!/usr/bin/env node
// The system under test of the reader benchmark, in its own process: identity, the reader and the
// gateway wired as in single-process mode (one in-memory bus), the reader on the embedded store.
// Started by run.mjs with `fork`; it reports its URLs over IPC and answers `memory` requests.
import { performance } from 'node:perf_hooks';
import { loadBuilt, sendMemory } from '../lib/server.mjs';
import { installWorkCounters, workSnapshot } from '../lib/work.mjs';

// Statements, COMMITs and fsyncs are counted for run.mjs's per-feed work (bench/lib/work.mjs).
await installWorkCounters();

const load = (path) => loadBuilt(path, { hint: 'see bench/reader/README.md' });
// What these scripts use of the libs: createLogger, loadConfig, formatOffsetTime (core); startService,
// connectBus, openStore (runtime); EmbeddedStore (store-embedded).
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
  ...(await load('libs/store-embedded/dist/index.js')),
};
const { identityService } = await load('services/identity/dist/index.js');
const { createReaderService } = await load('services/reader/dist/index.js');
const { createGateway, gatewayConfigSchema } = await load('gateway/dist/index.js');

const dataDir = process.env.BENCH_DATA_DIR;
const storeKind = process.env.BENCH_STORE ?? 'file';
const adminToken = process.env.BENCH_ADMIN_TOKEN;
const logger = platform.createLogger({ service: 'bench', level: process.env.BENCH_LOG_LEVEL ?? 'warn' });
const publicUrl = 'http://murmur.bench';

const bus = await platform.connectBus('memory:', { service: 'bench', logger });
const common = { PUBLIC_URL: publicUrl, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', DATA_DIR: dataDir };
const identity = await platform.startService(identityService, {
  env: { ...common, MURMUR_ADMIN_TOKEN: adminToken, STORE_URL: 'memory:' },
  bus,
  logger,
  port: 0,
  host: '127.0.0.1',
});
const startedAt = performance.now();
const reader = await platform.startService(createReaderService(), {
  env: {
    ...common,
    // mongodb: BENCH_STORE_URL, a database on a MongoDB-wire server (bench/store/mongodb.mjs).
    STORE_URL:
      storeKind === 'file'
        ? `file:${dataDir}`
        : storeKind === 'mongodb'
          ? process.env.BENCH_STORE_URL
          : 'memory:',
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    READER_SUBSCRIBE_LIMIT_PER_MINUTE: '1000000',
    READER_IMPORT_LIMIT_PER_HOUR: '1000000',
    // `READER_PARSE_THREAD=false node bench/reader/run.mjs …`: parsing on the event loop, for before/after.
    ...(process.env.READER_PARSE_THREAD ? { READER_PARSE_THREAD: process.env.READER_PARSE_THREAD } : {}),
  },
  bus,
  logger,
  port: 0,
  host: '127.0.0.1',
});
const readerStartMs = performance.now() - startedAt;
const config = platform.loadConfig(gatewayConfigSchema, {
  PUBLIC_URL: publicUrl,
  GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: common.LOG_LEVEL,
});
const gateway = await createGateway({
  config,
  targets: { identity: identity.url, reader: reader.url },
  logger,
});
await gateway.listen({ port: 0, host: '127.0.0.1' });
const address = gateway.server.address();

process.on('message', async (message) => {
  if (message === 'memory') sendMemory();
  if (message === 'work') process.send({ work: workSnapshot() });
  if (message === 'stop') {
    await gateway.close();
    await reader.stop();
    await identity.stop();
    await bus.close();
    process.send({ stopped: true });
    process.exit(0);
  }
});

process.send({
  ready: true,
  gatewayUrl: `http://127.0.0.1:${address.port}`,
  identityUrl: identity.url,
  readerUrl: reader.url,
  publicUrl,
  readerStartMs,
});
