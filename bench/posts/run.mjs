#!/usr/bin/env node
// Post-list benchmark (issue 38, finding 2; docs/api/publishing.md): one site grown to 1,000, 10,000
// and 50,000 posts, and at each size the lists publishing serves measured through the gateway —
// metaWeblog.getRecentPosts(20), the site's home page, its JSON Feed and RSS feed, a category's page —
// with the documents publishing's store read per request, and the gateway's /healthz as the machine's
// noise floor. Every list reads its newest N by an index, so the cost must stay flat as the site
// grows. Run after a build, from the repository root (or `npm run bench -- posts`):
//   node bench/posts/run.mjs [--sizes=1000,10000,50000] [--samples=200] [--store=file|memory] [--json]
// Exits non-zero only when the benchmark could not run; a missed target is reported.
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  benchDataDir,
  BenchError,
  flag,
  forkServer,
  freePort,
  listOption,
  loadavg as procLoadavg,
  log,
  machine,
  measure,
  mib,
  option,
  runMain,
  stats as summary,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** The three load averages (what `uptime` prints). */
const loadavg = () => procLoadavg().split(' ').slice(0, 3).join(' ');
const SIZES = (listOption('sizes').length > 0 ? listOption('sizes') : ['1000', '10000', '50000']).map(Number);
const SAMPLES = Number(option('samples', '200'));
const STORE = option('store', 'file');
/** Issue 38: p95 at 50,000 posts. */
const TARGET_P95_MS = 15;

const recentPostsCall = (token) =>
  '<?xml version="1.0"?><methodCall><methodName>metaWeblog.getRecentPosts</methodName><params>' +
  '<param><value><string>0</string></value></param><param><value><string>ada</string></value></param>' +
  `<param><value><string>${token}</string></value></param><param><value><int>20</int></value></param>` +
  '</params></methodCall>';

async function timed(request, check) {
  const started = performance.now();
  const res = await request();
  const text = await res.text();
  const ms = performance.now() - started;
  check(res, text);
  return ms;
}

function expectOk(what) {
  return (res, text) => {
    if (res.status !== 200) throw new BenchError(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
    if (text.includes('<fault>')) throw new BenchError(`${what} answered a fault: ${text.slice(0, 300)}`);
  };
}

async function main() {
  const data = benchDataDir('murmur-bench-posts-');
  const server = await forkServer(join(here, 'server.mjs'), {
    env: { BENCH_DATA_DIR: data.dir, BENCH_STORE: STORE, BENCH_GATEWAY_PORT: String(await freePort()) },
  });
  const base = server.gatewayUrl;
  const sitePath = new URL(server.siteUrl).pathname;
  const body = recentPostsCall(server.token);
  const xmlrpc = () =>
    fetch(`${base}/xmlrpc`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
  try {
    // The categories exist as an editor's first posts make them.
    for (const category of server.categories) {
      const call =
        '<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>' +
        '<param><value><string>0</string></value></param><param><value><string>ada</string></value></param>' +
        `<param><value><string>${server.token}</string></value></param><param><value><struct>` +
        `<member><name>title</name><value><string>First of ${category}</string></value></member>` +
        `<member><name>categories</name><value><array><data><value><string>${category}</string></value></data></array></value></member>` +
        '</struct></value></param></params></methodCall>';
      await timed(
        () =>
          fetch(`${base}/xmlrpc`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: call }),
        expectOk('newPost'),
      );
    }
    // Each list: the request through the gateway, and the same one for the publishing app in-process.
    const get = (path) => ({ through: () => fetch(`${base}${path}`), inject: { method: 'GET', url: path } });
    const lists = [
      ['GET /healthz (noise floor)', get('/healthz')],
      [
        'metaWeblog.getRecentPosts(20)',
        {
          through: xmlrpc,
          inject: { method: 'POST', url: '/xmlrpc', headers: { 'content-type': 'text/xml' }, payload: body },
        },
      ],
      ['GET site home', get(sitePath)],
      ['GET feed.json', get(`${sitePath}feed.json`)],
      ['GET feed.xml', get(`${sitePath}feed.xml`)],
      ['GET a category page', get(`${sitePath}categories/poetry/`)],
    ];
    const warmup = Math.min(30, SAMPLES);
    const results = { store: STORE, machine: machine(), node: process.version, sizes: [] };
    for (const size of SIZES) {
      const grown = await server.ask({ grow: size }, 'grown');
      if (grown.error) throw new BenchError(`adding posts failed: ${grown.error}`);
      log(`${size} posts in the site (added in ${grown.ms} ms); load average ${loadavg()}`);
      const row = { posts: size, loadavgBefore: loadavg(), lists: {} };
      for (const [label, request] of lists) {
        const before = await server.ask('examined', 'examined');
        const through = await measure(label, SAMPLES, () => timed(request.through, expectOk(label)));
        const after = await server.ask('examined', 'examined');
        const read = before === null ? null : Math.round(((after - before) / (SAMPLES + warmup)) * 10) / 10;
        if (read !== null) log(`    posts read per request: ${read}`);
        const inProcess = summary(
          await server.ask({ inject: { request: request.inject, n: SAMPLES, warmup } }, 'injected'),
        );
        log(`    in the publishing process: p50 ${inProcess.p50} ms, p95 ${inProcess.p95} ms`);
        row.lists[label] = { ...through, postsReadPerRequest: read, inProcess };
      }
      row.loadavgAfter = loadavg();
      results.sizes.push(row);
    }
    const memory = await server.memory();
    results.rssMiB = mib(memory.rss);

    const table = (title, cell) => {
      log(title);
      log(`  ${'list'.padEnd(32)}${SIZES.map((n) => String(n).padStart(26)).join('')}`);
      for (const [label] of lists) {
        log(`  ${label.padEnd(32)}${results.sizes.map((r) => cell(r.lists[label]).padStart(26)).join('')}`);
      }
    };
    table('\nthrough the gateway, p50 / p95 ms (posts read per request), by posts in the site:', (l) =>
      l.postsReadPerRequest === null
        ? `${l.p50} / ${l.p95}`
        : `${l.p50} / ${l.p95} (${l.postsReadPerRequest})`,
    );
    table(
      'in the publishing process (app.inject), p50 / p95 ms:',
      (l) => `${l.inProcess.p50} / ${l.inProcess.p95}`,
    );
    const largest = results.sizes.at(-1);
    log(`load average per size: ${results.sizes.map((r) => `${r.posts}: ${r.loadavgBefore}`).join('; ')}`);
    log(`server RSS at the end ${results.rssMiB} MiB`);
    log(`target: p95 ≤ ${TARGET_P95_MS} ms at ${largest.posts} posts (through the gateway; in-process)`);
    for (const [label] of lists.slice(1)) {
      const { p95, inProcess } = largest.lists[label];
      log(
        `  ${label}: ${p95} ms ${verdict(p95 <= TARGET_P95_MS)}; ` +
          `${inProcess.p95} ms ${verdict(inProcess.p95 <= TARGET_P95_MS)}`,
      );
    }
    log(`machine: ${results.machine}, Node ${results.node}, store ${STORE}`);
    if (flag('json')) console.log(JSON.stringify(results, null, 2));
  } finally {
    await server.stop();
    data.remove();
  }
}

runMain(main);
