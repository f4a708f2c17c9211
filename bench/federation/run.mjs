#!/usr/bin/env node
// Federation benchmark (bench/README.md "Federation"). Outbound: one post of a user with 10,000
// followers spread over 200 local inbox hosts, each follower with its own inbox (no shared inbox, the
// worst case: 10,000 signed deliveries), timed from the post event to the last delivery received, with
// the service's peak resident memory. Inbound: signed Like activities (draft-cavage, RSA) POSTed to the
// shared inbox, signatures verified and the likes stored, per second. The service runs in its own
// process (server.mjs), the 200 hosts in another (receivers.mjs), this process drives and measures.
// Run after a build, from the repository root:
//   node bench/federation/run.mjs [--followers=10000] [--hosts=200] [--inbound=5000] [--concurrency=64]
//                                 [--store=file|memory] [--shared] [--json]
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BenchError,
  benchDataDir,
  flag,
  forkServer,
  freePort,
  loadavg,
  log,
  machine,
  option,
  processCpuSeconds,
  processRssMiB,
  runMain,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FOLLOWERS = Number(option('followers', '10000'));
const HOSTS = Number(option('hosts', '200'));
const INBOUND = Number(option('inbound', '5000'));
const CONCURRENCY = Number(option('concurrency', '64'));
const STORE = option('store', 'file');
const TARGETS = { deliveriesPerSecond: 500, verifiedPerSecond: 500 };

function uptime() {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average ${loadavg()}`;
  }
}

function signedLike(key, keyId, actor, inbox, object, n) {
  const url = new URL(inbox);
  const body = JSON.stringify({ id: `${actor}#likes/${n}`, type: 'Like', actor, object });
  const date = new Date().toUTCString();
  const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
  const base = `(request-target): post ${url.pathname}\nhost: ${url.host}\ndate: ${date}\ndigest: ${digest}`;
  const signature = sign('sha256', Buffer.from(base), key).toString('base64');
  return {
    body,
    headers: {
      'content-type': 'application/activity+json',
      date,
      digest,
      signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`,
    },
  };
}

async function main() {
  const data = benchDataDir('murmur-bench-federation-');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const receivers = await forkServer(join(here, 'receivers.mjs'), {
    execArgv: [],
    env: {
      BENCH_RECEIVERS: String(HOSTS),
      BENCH_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }),
    },
  });
  const hosts = receivers.ports.map((p) => `127.0.0.1:${p}`);
  const port = await freePort();
  log(`seeding ${FOLLOWERS} followers over ${HOSTS} hosts (${STORE} store) …`);
  const server = await forkServer(join(here, 'server.mjs'), {
    execArgv: option('cpu-prof', '') ? ['--cpu-prof', `--cpu-prof-dir=${option('cpu-prof', '')}`] : [],
    env: {
      BENCH_HOSTS: hosts.join(','),
      BENCH_FOLLOWERS: String(FOLLOWERS),
      BENCH_SHARED: flag('shared') ? '1' : '0',
      BENCH_STORE: STORE,
      BENCH_DATA_DIR: data.dir,
      BENCH_PORT: String(port),
    },
  });
  try {
    // ---- outbound -------------------------------------------------------------------------------
    const expected = flag('shared') ? HOSTS : FOLLOWERS;
    const rssBefore = processRssMiB(server.pid);
    let peakRss = rssBefore;
    const cpuBefore = processCpuSeconds(server.pid);
    const started = performance.now();
    await server.ask({ type: 'publish' }, 'published');
    let got = 0;
    for (;;) {
      got = (await receivers.ask('count', 'count')).received;
      peakRss = Math.max(peakRss, processRssMiB(server.pid));
      if (got >= expected) break;
      if (performance.now() - started > 600_000)
        throw new BenchError(`only ${got} of ${expected} deliveries in 10 minutes`);
      await sleep(25);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = processCpuSeconds(server.pid) - cpuBefore;
    const { unsigned } = await receivers.ask('count', 'count');
    if (unsigned > 0) throw new BenchError(`${unsigned} deliveries came without Signature or Digest`);
    const counts = await server.ask('counts', 'counts');
    const perSecond = Math.round(expected / seconds);

    // ---- inbound --------------------------------------------------------------------------------
    const inbox = `http://127.0.0.1:${port}/ap/inbox`;
    const note = `http://127.0.0.1:${port}/ap/notes/1`;
    const actors = Array.from({ length: 50 }, (_, i) => `http://${hosts[i % hosts.length]}/users/a${i}`);
    const send = async (req) => {
      const res = await fetch(inbox, { method: 'POST', headers: req.headers, body: req.body });
      const text = await res.text();
      if (res.status !== 202) throw new BenchError(`inbox answered ${res.status} ${text}`);
    };
    // Each actor's key is fetched once (its first request), as on a real server after its first contact.
    for (const [i, actor] of actors.entries())
      await send(signedLike(privateKey, `${actor}#main-key`, actor, inbox, note, `w${i}`));
    log(`signing ${INBOUND} inbound activities …`);
    const requests = Array.from({ length: INBOUND }, (_, n) => {
      const actor = actors[n % actors.length];
      return signedLike(privateKey, `${actor}#main-key`, actor, inbox, note, n);
    });
    const inCpuBefore = processCpuSeconds(server.pid);
    const inStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) await send(requests[next++]);
      }),
    );
    const inSeconds = (performance.now() - inStarted) / 1000;
    const inCpu = processCpuSeconds(server.pid) - inCpuBefore;
    const stored = (await server.ask('counts', 'counts')).interactions;
    if (stored !== INBOUND + actors.length)
      throw new BenchError(`${stored} likes stored, ${INBOUND + actors.length} sent`);
    const inPerSecond = Math.round(INBOUND / inSeconds);

    const result = {
      machine: machine(),
      uptime: uptime(),
      store: STORE,
      outbound: {
        followers: FOLLOWERS,
        hosts: HOSTS,
        sharedInbox: flag('shared'),
        deliveries: expected,
        seconds: Math.round(seconds * 100) / 100,
        deliveriesPerSecond: perSecond,
        serviceCpuSeconds: Math.round(cpu * 100) / 100,
        serviceRssMiB: { before: Math.round(rssBefore), peak: Math.round(peakRss) },
        jobs: counts.jobs,
      },
      inbound: {
        activities: INBOUND,
        concurrency: CONCURRENCY,
        seconds: Math.round(inSeconds * 100) / 100,
        verifiedPerSecond: inPerSecond,
        serviceCpuSeconds: Math.round(inCpu * 100) / 100,
      },
    };
    if (flag('json')) console.log(JSON.stringify(result, null, 2));
    log(`machine: ${result.machine}`);
    log(`uptime: ${result.uptime}`);
    log(
      `outbound: ${expected} signed deliveries (${FOLLOWERS} followers, ${HOSTS} hosts${flag('shared') ? ', shared inboxes' : ', an inbox each'}) in ${result.outbound.seconds} s = ${perSecond}/s ` +
        `(target ≥ ${TARGETS.deliveriesPerSecond}/s: ${verdict(perSecond >= TARGETS.deliveriesPerSecond)}); service CPU ${result.outbound.serviceCpuSeconds} s; ` +
        `RSS ${result.outbound.serviceRssMiB.before} → peak ${result.outbound.serviceRssMiB.peak} MiB`,
    );
    log(
      `inbound: ${INBOUND} signed Likes verified and stored in ${result.inbound.seconds} s = ${inPerSecond}/s ` +
        `(target ≥ ${TARGETS.verifiedPerSecond}/s: ${verdict(inPerSecond >= TARGETS.verifiedPerSecond)}); service CPU ${result.inbound.serviceCpuSeconds} s`,
    );
  } finally {
    await server.stop().catch(() => undefined);
    await receivers.stop().catch(() => undefined);
    data.remove();
  }
}

runMain(main);
