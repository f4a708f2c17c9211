#!/usr/bin/env node
// Parse-only benchmark of the reader's feed parser (bench/reader/README.md "Parsing"): bytes of feed
// → decoded, parsed items (`parseFetched`, what a poll and a subscription run before sanitising).
// Reports MB/s on a 1,000-item document, feeds/s for a typical 30-item feed, and the longest the
// event loop was held while a 15 MiB feed and a 100,000-deep document were parsed. Run after a build:
//   node bench/reader/parse.mjs [--parser-dist=services/reader/dist] [--seconds=3] [--json]
// `--parser-dist` points at another build of the reader (e.g. main's) to measure "before".
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { flag, option, ratePerCpuSecond as rate } from '../lib/cli.mjs';
import { rssDocument } from './feeds.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The longest gap between 1 ms timer ticks while `task` runs: how long the event loop was held. */
async function longestStall(task) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await task();
  } catch {
    // refused documents are expected here
  }
  clearInterval(timer);
  return Math.max(longest, performance.now() - last);
}

export async function parsePhase({
  dist = join(root, 'services', 'reader', 'dist'),
  seconds = 3,
  log = console.error,
} = {}) {
  const { parseFetched } = await import(pathToFileURL(join(resolve(dist), 'feeds', 'parse.js')).href);
  const type = 'application/rss+xml; charset=utf-8';
  const url = 'http://127.0.0.1:9/f/1.xml';
  const typical = Buffer.from(rssDocument(1, 30, 30));
  const large = Buffer.from(rssDocument(2, 1000, 1000));
  const parse = async (body) => {
    const out = await parseFetched(body, type, url);
    if (out.kind !== 'feed' || out.feed.items.length === 0)
      throw new Error('the benchmark feed did not parse');
  };
  log(`parse-only (${dist}):`);
  const feedsPerSecond = await rate(() => parse(typical), seconds);
  log(`  30-item feed (${(typical.length / 1024).toFixed(1)} KiB): ${feedsPerSecond.toFixed(0)} feeds/s`);
  const largePerSecond = await rate(() => parse(large), seconds);
  const mbPerSecond = (largePerSecond * large.length) / 1e6;
  log(`  1,000-item feed (${(large.length / 1e6).toFixed(2)} MB): ${mbPerSecond.toFixed(1)} MB/s`);
  const huge = Buffer.from(
    rssDocument(3, 13_000, 13_000).slice(0, 15 * 1024 * 1024 - 200) + '</channel></rss>',
  );
  const hugeStall = await longestStall(() => parse(huge).catch(() => {}));
  const deep = Buffer.from(
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Deep</title><item><title>x</title><x>${'<a>'.repeat(100_000)}deep${'</a>'.repeat(100_000)}</x></item></channel></rss>`,
  );
  const deepStall = await longestStall(() => parse(deep));
  log(
    `  event loop held at most ${hugeStall.toFixed(0)} ms (15 MiB feed), ${deepStall.toFixed(0)} ms (100,000 deep)`,
  );
  return {
    feedsPerSecond: Math.round(feedsPerSecond),
    mbPerSecond: Math.round(mbPerSecond * 10) / 10,
    typicalBytes: typical.length,
    largeBytes: large.length,
    stallMs: { huge: Math.round(hugeStall), deep: Math.round(deepStall) },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const result = await parsePhase({
    dist: option('parser-dist', join(root, 'services', 'reader', 'dist')),
    seconds: Number(option('seconds', '3')),
  });
  if (flag('json')) console.log(JSON.stringify(result));
}
