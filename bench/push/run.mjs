#!/usr/bin/env node
// Push benchmark (bench/README.md "Push deliveries"). Run after a build, from the repository root:
//   node bench/push/run.mjs [--devices=10000] [--per-user=100] [--store=file|memory] [--concurrency=64]
//                           [--samples=20] [--json]
//                           [--cpu-prof=FILE]   (a V8 CPU profile of the throughput phase only, for DevTools)
// 1. Throughput: 10,000 devices (100 users × 100, the per-user cap), one follow event per user on
//    the bus; the time from the first event to the 10,000th delivery logged, over one HTTP/2 session
//    to a local APNs stand-in (its own process). Checks nothing is lost or sent twice and that every
//    delivery is in the delivery log.
// 2. Latency: a user with 10 devices is mentioned in a post event; the time to the 10th notification
//    arriving at the stand-in, over --samples events.
// Exits non-zero only when the benchmark could not run or a delivery was lost; a missed target is reported.
import { fork } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { flag, log, machine, option, percentile } from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const DEVICES = Number(option('devices', '10000'));
// Devices per user (1–100, the per-user cap): 100 → 100 events of 100 devices; 1 → 10,000 events of one.
const PER_USER = Number(option('per-user', '100'));
if (!(Number.isInteger(PER_USER) && PER_USER >= 1 && PER_USER <= 100))
  throw new Error('--per-user: 1 to 100');
const STORE = option('store', 'file');
const CONCURRENCY = option('concurrency', '64');
const SAMPLES = Number(option('samples', '20'));
const CPU_PROF = option('cpu-prof', '');
const TARGET_PER_SECOND = 2000;

const requireFromPush = createRequire(join(root, 'services/push/package.json'));
const { generate } = requireFromPush('selfsigned');
const platform = {
  ...(await import(join(root, 'libs/core/dist/index.js'))),
  ...(await import(join(root, 'libs/runtime/dist/index.js'))),
};
const contracts = await import(join(root, 'libs/contracts/dist/index.js'));
const { createPushService } = await import(join(root, 'services/push/dist/index.js'));

const cert = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
  keyType: 'ec',
  curve: 'P-256',
  extensions: [
    { name: 'basicConstraints', cA: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ],
});
const standIn = fork(join(here, 'apns-stand-in.mjs'), [], {
  env: { ...process.env, KEY: cert.private, CERT: cert.cert },
});
const ask = (message) =>
  new Promise((resolve) => {
    standIn.once('message', resolve);
    standIn.send(message);
  });
const { port: apnsPort } = await new Promise((resolve) => standIn.once('message', resolve));
const apnsUrl = `https://127.0.0.1:${apnsPort}`;

const dataDir = mkdtempSync(join(tmpdir(), 'murmur-push-bench-'));
const ADMIN = randomUUID() + randomUUID();
const busUrl = `memory:push-bench`;
const logger = platform.createLogger({ service: 'push', level: 'warn' });
const bus = await platform.connectBus(busUrl, { service: 'push-bench', logger });
const store = await platform.openStore(STORE === 'memory' ? 'memory:' : `file:${dataDir}`, {
  service: 'push',
});
let ctx;
const push = await platform.startService(
  createPushService({ jobPollIntervalMs: 50, apnsCa: cert.cert, onContext: (c) => (ctx = c) }),
  {
    env: {
      BUS_URL: busUrl,
      MURMUR_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PUSH_APNS_PRODUCTION_URL: apnsUrl,
      PUSH_APNS_SANDBOX_URL: apnsUrl,
      PUSH_DELIVERY_CONCURRENCY: CONCURRENCY,
    },
    store,
    bus,
    logger,
    port: 0,
    host: '127.0.0.1',
  },
);
const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const put = await fetch(`${push.url}/admin/push/apps/Bench`, {
  method: 'PUT',
  headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    team_id: 'TEAM123456',
    key_id: 'KEY1234567',
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    topic: 'org.murmur.bench',
    default: true,
  }),
});
if (put.status !== 201) throw new Error(`push app: ${put.status} ${await put.text()}`);

const deliveries = store.collection('deliveries');
const waitFor = async (check, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const hex = (n) => n.toString(16).padStart(64, '0');

// ---- 1. throughput -------------------------------------------------------------------------------
const users = Math.ceil(DEVICES / PER_USER);
log(`seeding ${DEVICES} devices of ${users} users (${STORE} store)…`);
for (let u = 0; u < users; u++) {
  for (let d = 0; d < PER_USER && u * PER_USER + d < DEVICES; d++) {
    await ctx.store.insertDevice({
      userId: 1000 + u,
      token: hex(u * PER_USER + d + 1),
      pushEnv: 'production',
      appName: 'Bench',
      createdAt: new Date(),
    });
  }
}
log('sending…');
// The profile covers the throughput phase only (not the seeding, the sender-alone or latency phases).
const profiler = CPU_PROF ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const connectsBefore = ctx.apns.connects;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let u = 0; u < users; u++) {
  await bus.publish(contracts.feeds.followCreated, {
    followerId: 1,
    followerUsername: 'bench',
    followeeId: 1000 + u,
    followeeUsername: `user${u}`,
    createdAt: '2030-01-01T00:00:00+00:00',
  });
}
// Polls the stand-in (its own process), not the store, so the measurement costs the push process nothing.
await waitFor(async () => (await ask('stats')).total >= DEVICES, 600_000);
// Every delivery is logged right after APNs answers: wait for the last log writes.
await waitFor(async () => (await deliveries.countDocuments({ outcome: 'delivered' })) >= DEVICES, 60_000);
const elapsed = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(CPU_PROF, JSON.stringify(profile));
  profiler.disconnect();
  log(`CPU profile of the throughput phase: ${CPU_PROF}`);
}
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const stats = await ask('stats');
const perSecond = Math.round(DEVICES / (elapsed / 1000));
const throughput = {
  devices: DEVICES,
  perUser: PER_USER,
  seconds: Math.round(elapsed) / 1000,
  perSecond,
  // Load-independent: deliveries per second of CPU the push process used (the stand-in not counted).
  perCpuSecond: Math.round(DEVICES / cpuSeconds),
  received: stats.total,
  distinct: stats.distinct,
  duplicates: stats.duplicates,
  logged: await deliveries.countDocuments({ outcome: 'delivered' }),
  sessionsOpened: ctx.apns.connects - connectsBefore,
  met: perSecond >= TARGET_PER_SECOND,
};
log(throughput);

// ---- 1b. the HTTP/2 client alone: the same number of sends straight through the sender ---------------
// Separates the APNs path (one session, one stream per notification) from the jobs around it.
await ask('reset');
const app = {
  name: 'Bench',
  teamId: 'TEAM123456',
  keyId: 'KEY1234567',
  key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
  topic: 'org.murmur.bench',
};
const senderCpu0 = process.cpuUsage();
const s0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: Number(CONCURRENCY) }, async () => {
    while (next < DEVICES) {
      const i = next++;
      const answer = await ctx.apns.send(
        app,
        'production',
        hex(i + 1),
        '{"aps":{"alert":"bench","sound":"default"}}',
      );
      if (answer.status !== 200) throw new Error(`sender: ${answer.status} ${answer.reason}`);
    }
  }),
);
const senderMs = performance.now() - s0;
const senderCpu = process.cpuUsage(senderCpu0);
const sender = {
  sends: DEVICES,
  perSecond: Math.round(DEVICES / (senderMs / 1000)),
  perCpuSecond: Math.round(DEVICES / ((senderCpu.user + senderCpu.system) / 1e6)),
};
log({ sender });

// ---- 2. latency for a user with 10 devices ---------------------------------------------------------
for (let d = 0; d < 10; d++) {
  await ctx.store.insertDevice({
    userId: 5,
    token: hex(900_000 + d),
    pushEnv: 'production',
    appName: 'Bench',
    createdAt: new Date(),
  });
}
// The post event names its author by id; push asks identity for the username.
await bus.handle(contracts.identity.usersGet, async () => ({
  user: {
    id: 2,
    username: 'bob',
    email: 'bob@example.com',
    name: 'Bob',
    fullName: '',
    avatar: '',
    bio: '',
    createdAt: '2030-01-01T00:00:00Z',
  },
}));
const latencies = [];
for (let i = 0; i < SAMPLES; i++) {
  await ask('reset');
  const start = performance.now();
  await bus.publish(contracts.publishing.postPublished, {
    id: 10_000 + i,
    userId: 2,
    siteId: 2,
    url: `https://example.test/${i}`,
    title: '',
    contentHtml: '',
    contentText: 'hello @ada',
    publishedAt: '2030-01-01T00:00:00+00:00',
    photos: [],
    mentions: [{ userId: 5, username: 'ada' }],
    categories: [],
  });
  for (;;) {
    const s = await ask('stats');
    if (s.total >= 10) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  latencies.push(performance.now() - start);
}
latencies.sort((a, b) => a - b);
const pick = (p) => Math.round(percentile(latencies, p));
const latency = { samples: SAMPLES, p50ms: pick(50), p95ms: pick(95), maxms: pick(100) };
log(latency);

const result = {
  machine: machine(),
  node: process.version,
  store: STORE,
  throughput,
  sender,
  latency,
};
if (flag('json')) console.log(JSON.stringify(result, null, 2));
else {
  console.log(
    `throughput: ${throughput.perSecond}/s (${throughput.devices} deliveries in ${throughput.seconds} s, ` +
      `${throughput.perCpuSecond} per CPU-second of the push process, ${throughput.sessionsOpened} session(s), ${throughput.duplicates} duplicates, ${throughput.logged} logged) ` +
      `target ≥ ${TARGET_PER_SECOND}/s ${throughput.met ? 'met' : 'NOT met'}`,
  );
  console.log(`HTTP/2 sender alone: ${sender.perSecond}/s (${sender.perCpuSecond} per CPU-second)`);
  console.log(
    `post → 10th notification of a 10-device user: p50 ${latency.p50ms} ms, p95 ${latency.p95ms} ms`,
  );
}

await push.stop();
await bus.close();
await store.close();
standIn.send('stop');
rmSync(dataDir, { recursive: true, force: true });
if (stats.distinct !== DEVICES || stats.duplicates !== 0 || throughput.logged !== DEVICES) process.exit(1);
