#!/usr/bin/env node
// WebSub subscriber benchmark (bench/websub/subscriber.md): the publish-to-unread latency of
// the reader — from the moment a hub starts delivering a feed's new document to the moment the new
// entry is in `GET /feeds/v2/unread_entries.json` through the gateway. Target: p95 ≤ 2 s.
// The system under test is the reader benchmark's (bench/reader/server.mjs: identity, the reader on
// the embedded file store and the gateway in one forked process, PUBLIC_URL http://murmur.bench); the
// publisher and the hub are a local server in this process on 127.0.0.1 that subscribes nothing of
// its own: it answers the reader's subscription requests, verifies intent at the reader's callback
// (through the gateway) and delivers signed documents (sha256) as a hub does.
// Run after a build, from the repository root:
//   node bench/websub/subscriber.mjs [--feeds=50] [--samples=200] [--warmup=20] [--store=file|memory] [--json]
// Exits non-zero only when the benchmark could not run; a missed target is reported.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  BenchError,
  benchDataDir,
  flag,
  forkServer,
  loadavg,
  log,
  machine,
  option,
  runMain,
  stats,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FEEDS = Number(option('feeds', '50'));
const SAMPLES = Number(option('samples', '200'));
const WARMUP = Number(option('warmup', '20'));
const STORE = option('store', 'file');
const TARGET_P95_MS = 2000;
const KEEP_ITEMS = 20;

/** The publisher and hub: feeds at /feed/{n}, the hub at /hub. */
async function startPublisherAndHub(gatewayUrl, publicUrl) {
  const items = new Map(); // feed number → [{id, title}] newest first
  const subscriptions = new Map(); // topic → {callback, secret}
  let origin = '';
  const topic = (n) => `${origin}/feed/${n}`;
  const document = (n) =>
    `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Feed ${n}</title>` +
    `<id>${topic(n)}</id><updated>2026-12-01T00:00:00Z</updated>` +
    (items.get(n) ?? [])
      .map(
        (i) =>
          `<entry><id>${topic(n)}#${i.id}</id><title>${i.title}</title><link href="${topic(n)}/${i.id}"/>` +
          `<updated>2026-12-01T00:00:00Z</updated><content type="html">&lt;p&gt;${i.title}&lt;/p&gt;</content></entry>`,
      )
      .join('') +
    `</feed>`;
  const local = (callback) => gatewayUrl + callback.slice(publicUrl.length);

  const verify = async (params) => {
    const challenge = randomBytes(12).toString('hex');
    const url = new URL(local(params.get('hub.callback')));
    url.searchParams.set('hub.mode', params.get('hub.mode'));
    url.searchParams.set('hub.topic', params.get('hub.topic'));
    url.searchParams.set('hub.challenge', challenge);
    url.searchParams.set('hub.lease_seconds', '86400');
    const res = await fetch(url);
    if (res.status === 200 && (await res.text()) === challenge && params.get('hub.mode') === 'subscribe') {
      subscriptions.set(params.get('hub.topic'), {
        callback: params.get('hub.callback'),
        secret: params.get('hub.secret'),
      });
    }
  };

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (req.method === 'POST' && path === '/hub') {
        res.writeHead(202).end();
        void verify(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))).catch((err) =>
          log(`verification failed: ${err}`),
        );
        return;
      }
      const m = /^\/feed\/(\d+)$/.exec(path);
      if (req.method === 'GET' && m) {
        const n = Number(m[1]);
        res.writeHead(200, {
          'content-type': 'application/atom+xml',
          link: `<${origin}/hub>; rel="hub", <${topic(n)}>; rel="self"`,
        });
        res.end(document(n));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;

  let counter = 0;
  return {
    topic,
    subscriptions,
    addItem(n) {
      const list = items.get(n) ?? [];
      counter++;
      list.unshift({ id: `p${counter}`, title: `Post ${counter}` });
      items.set(n, list.slice(0, KEEP_ITEMS));
    },
    /** Delivers feed n's document to its subscriber (signed); resolves with the answer's status. */
    async deliver(n) {
      const sub = subscriptions.get(topic(n));
      const body = document(n);
      const signature = `sha256=${createHmac('sha256', sub.secret).update(body).digest('hex')}`;
      const res = await fetch(local(sub.callback), {
        method: 'POST',
        headers: {
          'content-type': 'application/atom+xml',
          link: `<${origin}/hub>; rel="hub", <${topic(n)}>; rel="self"`,
          'x-hub-signature': signature,
        },
        body,
      });
      await res.arrayBuffer();
      return res.status;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

async function createUser(server, adminToken, username) {
  const res = await fetch(`${server.identityUrl}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com` }),
  });
  if (res.status !== 201) throw new BenchError(`creating ${username}: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

async function main() {
  const adminToken = randomBytes(24).toString('base64url');
  const data = benchDataDir('murmur-bench-websub-subscriber-');
  const loadBefore = loadavg();
  log(`machine: ${machine()}; load average ${loadBefore}`);
  const server = await forkServer(join(here, '..', 'reader', 'server.mjs'), {
    execArgv: [],
    env: { BENCH_DATA_DIR: data.dir, BENCH_STORE: STORE, BENCH_ADMIN_TOKEN: adminToken },
  });
  const hub = await startPublisherAndHub(server.gatewayUrl, server.publicUrl);
  try {
    const token = await createUser(server, adminToken, 'bench');
    const api = (path, init = {}) =>
      fetch(`${server.gatewayUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
      });
    const unreadCount = async () => (await (await api('/feeds/v2/unread_entries.json')).json()).length;

    for (let n = 0; n < FEEDS; n++) {
      hub.addItem(n);
      const res = await api('/feeds/v2/subscriptions.json', {
        method: 'POST',
        body: JSON.stringify({ feed_url: hub.topic(n) }),
      });
      if (res.status !== 200 && res.status !== 201)
        throw new BenchError(`subscribing feed ${n}: ${res.status} ${await res.text()}`);
    }
    // The reader subscribes at the hub in a job; the hub verifies at once.
    const deadline = Date.now() + 120_000;
    while (hub.subscriptions.size < FEEDS) {
      if (Date.now() > deadline)
        throw new BenchError(`only ${hub.subscriptions.size} of ${FEEDS} hub subscriptions verified`);
      await sleep(100);
    }
    log(`${FEEDS} feeds subscribed and verified at the hub`);

    let unread = await unreadCount();
    const latency = [];
    const delivery = [];
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const n = i % FEEDS;
      hub.addItem(n);
      const started = performance.now();
      const status = await hub.deliver(n);
      const delivered = performance.now();
      if (status < 200 || status > 299) throw new BenchError(`delivery answered ${status}`);
      for (;;) {
        const now = await unreadCount();
        if (now > unread) {
          unread = now;
          break;
        }
        if (performance.now() - started > 30_000) throw new BenchError('a pushed entry never became unread');
        await sleep(2);
      }
      if (i >= WARMUP) {
        latency.push(performance.now() - started);
        delivery.push(delivered - started);
      }
    }
    const loadAfter = loadavg();
    const results = {
      machine: machine(),
      store: STORE,
      feeds: FEEDS,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
      publishToUnreadMs: stats(latency),
      deliveryAnsweredMs: stats(delivery),
      targetP95Ms: TARGET_P95_MS,
    };
    const s = results.publishToUnreadMs;
    log(`publish → unread_entries.json (${s.n} samples over ${FEEDS} feeds, ${STORE} store):`);
    log(
      `  p50 ${s.p50} ms, p95 ${s.p95} ms, p99 ${s.p99} ms, max ${s.max} ms — target p95 ≤ ${TARGET_P95_MS} ms: ${verdict(s.p95 <= TARGET_P95_MS)}`,
    );
    const d = results.deliveryAnsweredMs;
    log(
      `  of which the delivery's 2xx (parsed, stored, unread): p50 ${d.p50} ms, p95 ${d.p95} ms, max ${d.max} ms`,
    );
    log(`load average: ${loadBefore} before, ${loadAfter} after`);
    if (flag('json')) console.log(JSON.stringify(results, null, 2));
  } finally {
    await hub.close();
    await server.stop();
    data.remove();
  }
}

runMain(main);
