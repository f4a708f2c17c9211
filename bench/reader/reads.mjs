// The reader benchmark's read measurements (bench/reader/README.md), shared by run.mjs (on its own
// server) and bench/store/community.mjs (on the single process over a data directory that holds the
// feeds and archive benchmarks' data too): a client of the Feedbin-style API through the gateway, the
// list and mark requests measured one after another, and the reader's targets.
import { performance } from 'node:perf_hooks';
import { BenchError, log, measure as measureAfter, verdict } from '../lib/cli.mjs';

export const TARGETS = { unreadP95: 50, entriesP95: 50, markP95: 100, rssMiB: 1024, feedsPerMinute: 300 };

/** Each measurement after 20 warm-up requests. */
const measure = (label, n, once) => measureAfter(label, n, once, { warmup: 20 });

/**
 * `call(method, path, body)` against the gateway at `gatewayUrl` with `token`; absolute URLs under
 * `publicUrl` (the API's own links) are requested by their path. Throws a BenchError on a 4xx or 5xx.
 */
export function client({ gatewayUrl, publicUrl }, token) {
  return async function call(method, path, body) {
    const url = path.startsWith(publicUrl) ? path.slice(publicUrl.length) : path;
    const started = performance.now();
    const res = await fetch(`${gatewayUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status >= 400)
      throw new BenchError(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text), ms };
  };
}

/** The number of entries the user's timeline holds (the API's record count). */
export async function entryCount(call) {
  const res = await call('GET', '/feeds/v2/entries.json?per_page=1');
  return Number(res.headers.get('x-feedbin-record-count'));
}

/**
 * The list and mark requests, `samples` of each (the mark requests leave the unread set as it was):
 * unread ids, the first and a deep page of entries, a page of unread entries, 1,000 ids marked read
 * and unread. `total` is the timeline's length (the deep page is 100 pages from its end).
 */
export async function measureReads(call, { samples, total }) {
  log('measuring through the gateway (sequential requests):');
  const deepPage = Math.max(2, Math.floor(total / 100) - 100);
  const results = {
    unread: await measure(
      'GET unread_entries.json',
      samples,
      async () => (await call('GET', '/feeds/v2/unread_entries.json')).ms,
    ),
    entriesFirst: await measure(
      'GET entries.json?per_page=100',
      samples,
      async () => (await call('GET', '/feeds/v2/entries.json?per_page=100')).ms,
    ),
    entriesDeep: await measure(
      `GET entries.json?per_page=100&page=${deepPage}`,
      samples,
      async () => (await call('GET', `/feeds/v2/entries.json?per_page=100&page=${deepPage}`)).ms,
    ),
    entriesUnread: await measure(
      'GET entries.json?read=false&per_page=100',
      samples,
      async () => (await call('GET', '/feeds/v2/entries.json?read=false&per_page=100')).ms,
    ),
  };
  const chunk = (await call('GET', '/feeds/v2/unread_entries.json')).json().slice(0, 1000);
  if (chunk.length === 0) throw new BenchError('no unread entries to mark');
  results.markRead = await measure('DELETE unread_entries.json (1000 ids)', samples, async () => {
    const r = await call('DELETE', '/feeds/v2/unread_entries.json', { unread_entries: chunk });
    await call('POST', '/feeds/v2/unread_entries.json', { unread_entries: chunk });
    return r.ms;
  });
  results.markUnread = await measure(
    'POST unread_entries.json (1000 ids)',
    Math.min(samples, 100),
    async () => {
      await call('DELETE', '/feeds/v2/unread_entries.json', { unread_entries: chunk });
      return (await call('POST', '/feeds/v2/unread_entries.json', { unread_entries: chunk })).ms;
    },
  );
  return results;
}

/** The reader's targets against `reads` (measureReads's results) and the server's RSS in MiB. */
export function logReadTargets(reads, rssMiB) {
  log(
    `  GET unread p95 ${reads.unread.p95} ms ≤ ${TARGETS.unreadP95}: ${verdict(reads.unread.p95 <= TARGETS.unreadP95)}`,
  );
  const entriesP95 = Math.max(reads.entriesFirst.p95, reads.entriesDeep.p95);
  log(
    `  GET entries first p95 ${reads.entriesFirst.p95} ms, deep p95 ${reads.entriesDeep.p95} ms ≤ ${TARGETS.entriesP95}: ${verdict(entriesP95 <= TARGETS.entriesP95)}`,
  );
  log(
    `  mark 1000 read p95 ${reads.markRead.p95} ms ≤ ${TARGETS.markP95}: ${verdict(reads.markRead.p95 <= TARGETS.markP95)}`,
  );
  log(`  RSS ${rssMiB} MiB ≤ ${TARGETS.rssMiB}: ${verdict(rssMiB <= TARGETS.rssMiB)}`);
}
