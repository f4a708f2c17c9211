#!/usr/bin/env node
// Archive benchmark (issue 14, docs/api/archive.md): an archive of 50,000 posts imported from one JSON
// Feed file through the gateway, then search.json (one- and three-term queries) and deep pages of
// recent.json measured through the gateway, and the server's memory. Run after a build, from the
// repository root (or `npm run bench -- archive`):
//   node bench/archive/run.mjs [--posts=50000] [--samples=300] [--store=file|memory] [--json]
//                              [--data-dir=<dir>]
// --data-dir: seed into that directory and keep it (bench/store/community.mjs); otherwise a temporary one.
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
  log,
  machine,
  measure,
  mib,
  option,
  runMain,
  stats,
  verdict,
} from '../lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const POSTS = Number(option('posts', '50000'));
const SAMPLES = Number(option('samples', '300'));
const STORE = option('store', 'file');
const TARGETS = { importPostsPerSecond: 2000, searchP95: 30, recentDeepP95: 15 };

// A deterministic generator, so every run imports the same archive.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
// A vocabulary of 20,000 made-up words with a Zipf-like frequency: a few very common, most rare,
// as in real text; some carry accents, so folding does work.
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'zé',
  'pa',
  'do',
  'fè',
  'gu',
  'hi',
  'jo',
  'ça',
];
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  let n = i + 1;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return word;
});
const word = () =>
  VOCABULARY[
    Math.min(VOCABULARY.length - 1, Math.floor(Math.exp(random() * Math.log(VOCABULARY.length))) - 1)
  ];

function archiveFile(count) {
  const start = Date.UTC(2006, 0, 1);
  const span = Date.UTC(2026, 0, 1) - start;
  const items = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 60 + Math.floor(random() * 120) }, word);
    const half = Math.floor(words.length / 2);
    items.push({
      id: i + 1,
      url: `https://old.example/${i + 1}.html`,
      title: `${word()} ${word()} ${word()}`,
      content_html: `<p>${words.slice(0, half).join(' ')}.</p><p>${words.slice(half).join(' ')} <a href="/tag/${word()}">more</a></p>`,
      date_published: new Date(start + Math.floor(random() * span)).toISOString(),
      tags: [word(), word()],
    });
  }
  return JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Old blog', items });
}

async function startServer(dataDir) {
  return forkServer(join(here, 'server.mjs'), {
    env: { BENCH_DATA_DIR: dataDir, BENCH_STORE: STORE, BENCH_GATEWAY_PORT: String(await freePort()) },
  });
}

async function get(server, path) {
  const started = performance.now();
  const res = await fetch(`${server.gatewayUrl}${path}`);
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new BenchError(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { text, ms };
}

async function main() {
  const data = benchDataDir('murmur-bench-archive-');
  const server = await startServer(data.dir);
  try {
    const body = archiveFile(POSTS);
    log(`importing ${POSTS} posts (${mib(body.length)} MiB JSON Feed) through the gateway, store ${STORE}…`);
    const base = `/imported/archive/${server.siteId}`;
    const started = performance.now();
    const res = await fetch(`${server.gatewayUrl}${base}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body,
    });
    if (res.status !== 202) throw new BenchError(`import answered ${res.status}: ${await res.text()}`);
    const { id } = await res.json();
    const uploadedMs = performance.now() - started;
    let state;
    for (;;) {
      const r = await fetch(`${server.gatewayUrl}${base}/import/${id}`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      state = await r.json();
      if (state.status === 'complete' || state.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const importMs = performance.now() - started;
    if (state.status !== 'complete' || state.imported !== POSTS)
      throw new BenchError(`import ended ${JSON.stringify(state)}`);
    const results = {
      posts: POSTS,
      uploadMs: Math.round(uploadedMs),
      importMs: Math.round(importMs),
      postsPerSecond: Math.round(POSTS / (importMs / 1000)),
    };
    log(
      `  upload ${results.uploadMs} ms; import complete after ${results.importMs} ms: ${results.postsPerSecond} posts/s`,
    );
    const firstRead = await get(server, `${base}/recent.json`);
    results.firstReadMs = Math.round(firstRead.ms);
    log(`  first read after the import (builds the site's read model): ${results.firstReadMs} ms`);
    const memAfterImport = await server.ask('memory', 'memory');
    log(`  server RSS after the import ${mib(memAfterImport.rss)} MiB`);

    // Query terms drawn from the vocabulary: common, middling and rare words.
    const one = Array.from(
      { length: 64 },
      (_, i) => VOCABULARY[Math.floor(Math.exp((i / 64) * Math.log(5000)))],
    );
    const three = Array.from({ length: 64 }, (_, i) =>
      [one[i], VOCABULARY[i % 40], VOCABULARY[(i * 7) % 300]].join(' '),
    );
    log('measuring through the gateway (sequential requests):');
    results.noiseFloor = await measure(
      'GET /healthz of the gateway (noise floor)',
      SAMPLES,
      async () => (await get(server, '/healthz')).ms,
    );
    let hits = 0;
    results.searchOneTerm = await measure('GET search.json, one term', SAMPLES, async (i) => {
      const r = await get(server, `${base}/search.json?q=${encodeURIComponent(one[i % one.length])}`);
      hits += JSON.parse(r.text).items.length;
      return r.ms;
    });
    log(`    (${(hits / (SAMPLES + Math.min(30, SAMPLES))).toFixed(0)} results on average)`);
    hits = 0;
    results.searchThreeTerms = await measure('GET search.json, three terms', SAMPLES, async (i) => {
      const r = await get(server, `${base}/search.json?q=${encodeURIComponent(three[i % three.length])}`);
      hits += JSON.parse(r.text).items.length;
      return r.ms;
    });
    log(`    (${(hits / (SAMPLES + Math.min(30, SAMPLES))).toFixed(0)} results on average)`);
    results.recentFirst = await measure(
      'GET recent.json',
      SAMPLES,
      async () => (await get(server, `${base}/recent.json`)).ms,
    );
    const deep = Math.max(0, POSTS - 50);
    results.recentDeep = await measure(
      `GET recent.json?offset=${deep}`,
      SAMPLES,
      async () => (await get(server, `${base}/recent.json?offset=${deep}`)).ms,
    );
    results.month = await measure(
      'GET 2016/5.json',
      SAMPLES,
      async () => (await get(server, `${base}/2016/5.json`)).ms,
    );
    log('the same requests in the archive process (app.inject: no sockets, no gateway):');
    const injected = async (label, urls) => {
      const warmup = Math.min(30, urls.length);
      const result = stats(
        await server.ask({ inject: { urls: [...urls.slice(0, warmup), ...urls], warmup } }, 'injected'),
      );
      log(`  ${label}: p50 ${result.p50} ms, p95 ${result.p95} ms (n=${result.n}, max ${result.max} ms)`);
      return result;
    };
    const times = (n, make) => Array.from({ length: n }, (_, i) => make(i));
    results.inProcess = {
      searchOneTerm: await injected(
        'search.json, one term',
        times(SAMPLES, (i) => `${base}/search.json?q=${encodeURIComponent(one[i % one.length])}`),
      ),
      searchThreeTerms: await injected(
        'search.json, three terms',
        times(SAMPLES, (i) => `${base}/search.json?q=${encodeURIComponent(three[i % three.length])}`),
      ),
      recentDeep: await injected(
        `recent.json?offset=${deep}`,
        times(SAMPLES, () => `${base}/recent.json?offset=${deep}`),
      ),
    };
    const memory = await server.ask('memory', 'memory');
    results.rssMiB = mib(memory.rss);
    results.liveHeapMiB = mib(memory.liveHeap);
    log(`  server RSS ${results.rssMiB} MiB; live heap after a GC ${results.liveHeapMiB} MiB`);

    log('targets:');
    log(
      `  import ≥ ${TARGETS.importPostsPerSecond} posts/s: ${verdict(results.postsPerSecond >= TARGETS.importPostsPerSecond)}`,
    );
    log(
      `  search p95 ≤ ${TARGETS.searchP95} ms (one and three terms): ${verdict(results.searchOneTerm.p95 <= TARGETS.searchP95 && results.searchThreeTerms.p95 <= TARGETS.searchP95)}`,
    );
    log(
      `  recent.json deep page p95 ≤ ${TARGETS.recentDeepP95} ms: ${verdict(results.recentDeep.p95 <= TARGETS.recentDeepP95)}`,
    );
    log(`machine: ${machine()}, Node ${process.version}, store ${STORE}`);
    if (flag('json')) console.log(JSON.stringify(results, null, 2));
  } finally {
    await server.stop();
    data.remove();
  }
}

runMain(main);
