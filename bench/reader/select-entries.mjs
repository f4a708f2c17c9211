#!/usr/bin/env node
// The reader's entry-page selection alone (services/reader/src/domain/entries.ts, selectEntries) on a
// view of 1,000,000 entries with 30,000 unread and 200 starred: p50 / p95 of 60 calls per kind of page.
// After a build, from the repository root: node bench/reader/select-entries.mjs
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { selectEntries } = await import(join(root, 'services/reader/dist/domain/entries.js'));
const N = 1_000_000,
  U = 30_000;
const ids = new Float64Array(N),
  times = new Float64Array(N),
  feeds = new Float64Array(N);
for (let i = 0; i < N; i++) {
  ids[i] = N - i;
  times[i] = 1e15 - i * 1000;
  feeds[i] = i % 500;
}
const unread = new Set();
for (let i = 0; i < U; i++) unread.add(N - i * 7);
const starred = new Map();
for (let i = 0; i < 200; i++) starred.set(N - i * 4001, { entryId: N - i * 4001 });
const view = { ids, times, feeds, unread, starred, unreadList: null, positions: null, idsDescending: true };
const cases = {
  'page 1': [{}, 0],
  'deep page (offset 90,000)': [{}, 90000],
  'read=false': [{ read: false }, 0],
  'starred=true': [{ starred: true }, 0],
  'since (half)': [{ sinceMicros: 1e15 - 500000 * 1000 }, 0],
};
for (const [name, [filter, offset]] of Object.entries(cases)) {
  const t = [];
  for (let i = 0; i < 60; i++) {
    const s = process.hrtime.bigint();
    selectEntries(view, filter, offset, 100);
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  t.sort((a, b) => a - b);
  console.log(name.padEnd(28), 'p50', t[30].toFixed(3), 'ms  p95', t[57].toFixed(3), 'ms');
}
