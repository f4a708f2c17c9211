#!/usr/bin/env node
// Micropub benchmark (issue 40; docs/api/publishing.md, "Micropub"): a client posting to /micropub through
// the gateway with a Bearer token, one request at a time — a text note (form-encoded), and a note with a
// 1 MB photo (multipart) — and the time from sending a post until it heads the timelines of the author's
// FOLLOWERS followers in the feeds service (the post travels as evt.publishing.post.published, as an
// XML-RPC post does). Prints p50/p95 and the load average; a missed target is reported, not an error.
// Run after a build, from the repository root (or `npm run bench -- micropub`):
//   node bench/micropub/run.mjs [--samples=200] [--photo-samples=50] [--fanout-samples=20]
//        [--followers=1000] [--store=file|memory] [--cpu-prof=<dir>] [--json]
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  benchDataDir,
  BenchError,
  flag,
  forkServer,
  freePort,
  loadavg as procLoadavg,
  log,
  machine,
  measure,
  mib,
  option,
  runMain,
  serverExecArgv,
  stats,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** The three load averages (what `uptime` prints). */
const loadavg = () => procLoadavg().split(' ').slice(0, 3).join(' ');
const SAMPLES = Number(option('samples', '200'));
const PHOTO_SAMPLES = Number(option('photo-samples', '50'));
const FANOUT_SAMPLES = Number(option('fanout-samples', '20'));
const FOLLOWERS = Number(option('followers', '1000'));
const STORE = option('store', 'file');
/** A V8 CPU profile of the server process into this directory (bench/lib/profile-top.mjs reads it). */
const CPU_PROF_DIR = option('cpu-prof', '');
/** Issue 40's targets on 2 cores. */
const TARGETS = { textP95Ms: 30, photoP95Ms: 80, fanoutMs: 1000 };
/** Followers whose timelines are read after each post, besides the last one (all must hold it). */
const CHECKED_FOLLOWERS = 20;

/** A 1 MB JPEG as the sniffer sees one: its signature, then filler. */
const PHOTO = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  randomBytes(1024 * 1024 - 14),
  Buffer.from([0xff, 0xd9]),
]);

function multipart(fields, file) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

async function post(server, body, type) {
  const started = performance.now();
  const res = await fetch(`${server.gatewayUrl}/micropub`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': type },
    body,
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  const location = res.headers.get('location');
  if (res.status !== 201 || !location) throw new BenchError(`POST /micropub answered ${res.status}`);
  return { ms, location };
}

const form = (fields) => new URLSearchParams(fields).toString();

async function xmlrpcNewPost(server, text) {
  const call =
    '<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>' +
    '<param><value><string>0</string></value></param><param><value><string>ada</string></value></param>' +
    `<param><value><string>${server.token}</string></value></param><param><value><struct>` +
    `<member><name>description</name><value><string>${text}</string></value></member>` +
    '</struct></value></param><param><value><boolean>1</boolean></value></param></params></methodCall>';
  const started = performance.now();
  const res = await fetch(`${server.gatewayUrl}/xmlrpc`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: call,
  });
  const body = await res.text();
  if (res.status !== 200 || body.includes('<fault>')) throw new BenchError(`newPost: ${body.slice(0, 200)}`);
  return performance.now() - started;
}

async function healthz(server) {
  const started = performance.now();
  const res = await fetch(`${server.gatewayUrl}/healthz`);
  await res.arrayBuffer();
  return performance.now() - started;
}
const FORM = 'application/x-www-form-urlencoded';

async function heads(server, username, url) {
  const res = await fetch(`${server.gatewayUrl}/feeds/${username}.json?count=1`);
  if (res.status !== 200) throw new BenchError(`GET /feeds/${username}.json answered ${res.status}`);
  return JSON.parse(await res.text()).items[0]?.url === url;
}

async function main() {
  const data = benchDataDir('murmur-bench-micropub-');
  const server = await forkServer(join(here, 'server.mjs'), {
    execArgv: serverExecArgv({ cpuProfDir: CPU_PROF_DIR }),
    env: {
      BENCH_DATA_DIR: data.dir,
      BENCH_STORE: STORE,
      BENCH_FOLLOWERS: String(FOLLOWERS),
      BENCH_GATEWAY_PORT: String(await freePort()),
    },
  });
  const results = { store: STORE, machine: machine(), node: process.version, followers: FOLLOWERS };
  try {
    log(`load average before: ${loadavg()}`);
    results.loadavgBefore = loadavg();
    let n = 0;
    // The same note by XML-RPC newPost, interleaved round by round with Micropub's: on a shared machine
    // only ratios measured side by side mean something (bench/README.md).
    const rounds = { micropub: [], xmlrpc: [], healthz: [] };
    log(`a text note, Micropub vs XML-RPC newPost vs GET /healthz, ${SAMPLES} rounds interleaved:`);
    for (let i = 0; i < SAMPLES + 20; i++) {
      const m = (await post(server, form({ h: 'entry', content: `Side by side ${n++}` }), FORM)).ms;
      const x = await xmlrpcNewPost(server, `Side by side ${n++}`);
      const h = await healthz(server);
      if (i >= 20) {
        rounds.micropub.push(m);
        rounds.xmlrpc.push(x);
        rounds.healthz.push(h);
      }
    }
    results.sideBySide = Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, stats(v)]));
    for (const [k, v] of Object.entries(results.sideBySide)) log(`  ${k}: p50 ${v.p50} ms, p95 ${v.p95} ms`);
    results.inProcess = stats(
      await server.ask({ inject: { n: SAMPLES, warmup: 20, token: server.token } }, 'injected'),
    );
    log(
      `  micropub in the publishing process (app.inject): p50 ${results.inProcess.p50} ms, p95 ${results.inProcess.p95} ms`,
    );
    log('POST /micropub through the gateway, one at a time:');
    results.text = await measure(
      'a text note (form-encoded)',
      SAMPLES,
      async () =>
        (await post(server, form({ h: 'entry', content: `Note ${n++} from the benchmark` }), FORM)).ms,
    );
    results.photo = await measure(
      'a note with a 1 MB photo (multipart)',
      PHOTO_SAMPLES,
      async () => {
        const { body, type } = multipart({ h: 'entry', content: `Photo ${n++}` }, PHOTO);
        return (await post(server, body, type)).ms;
      },
      { warmup: 5 },
    );
    results.loadavgAfterCreates = loadavg();

    const last = server.followers.at(-1);
    const step = Math.max(1, Math.floor(server.followers.length / CHECKED_FOLLOWERS));
    const checked = server.followers.filter((_, i) => i % step === 0).slice(0, CHECKED_FOLLOWERS);
    log(
      `POST /micropub until the post heads ${last}'s timeline (then ${checked.length} other followers' are read):`,
    );
    const latencies = [];
    for (let i = 0; i < FANOUT_SAMPLES; i++) {
      const started = performance.now();
      const { location } = await post(server, form({ h: 'entry', content: `Fan-out ${i}` }), FORM);
      while (!(await heads(server, last, location))) {
        if (performance.now() - started > 10_000)
          throw new BenchError(`${location} never reached ${last}'s timeline`);
      }
      latencies.push(performance.now() - started);
      const others = await Promise.all(checked.map((u) => heads(server, u, location)));
      if (others.some((ok) => !ok))
        throw new BenchError(`${location} is missing from some followers' timelines`);
      await new Promise((r) => setTimeout(r, 50));
    }
    results.fanout = stats(latencies);
    log(
      `  post → ${FOLLOWERS} followers' timelines: p50 ${results.fanout.p50} ms, max ${results.fanout.max} ms`,
    );
    results.loadavgAfter = loadavg();
    results.rssMiB = mib((await server.memory()).rss);

    log(
      `\nload average: before ${results.loadavgBefore}; after the creates ${results.loadavgAfterCreates}; at the end ${results.loadavgAfter}`,
    );
    log(
      `server RSS at the end ${results.rssMiB} MiB; machine: ${results.machine}, Node ${results.node}, store ${STORE}`,
    );
    log(`targets:`);
    log(
      `  text note p95 ≤ ${TARGETS.textP95Ms} ms: ${results.text.p95} ms ${verdict(results.text.p95 <= TARGETS.textP95Ms)}`,
    );
    log(
      `  1 MB photo p95 ≤ ${TARGETS.photoP95Ms} ms: ${results.photo.p95} ms ${verdict(results.photo.p95 <= TARGETS.photoP95Ms)}`,
    );
    log(
      `  post → ${FOLLOWERS} timelines ≤ ${TARGETS.fanoutMs} ms: max ${results.fanout.max} ms ${verdict(results.fanout.max <= TARGETS.fanoutMs)}`,
    );
    if (flag('json')) console.log(JSON.stringify(results, null, 2));
  } finally {
    await server.stop();
    data.remove();
  }
}

runMain(main);
