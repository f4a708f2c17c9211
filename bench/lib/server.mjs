// What the benchmarks' server.mjs files share (the system under test, forked by run.mjs through
// bench/lib/cli.mjs's forkServer): the built workspace packages, and the answer to `memory`.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Imports a built file of the workspace (`services/feeds/dist/index.js`); missing: say to build first. */
export async function loadBuilt(path, { hint = 'npm run build' } = {}) {
  const file = join(root, path);
  if (!existsSync(file)) throw new Error(`${path} is missing: build first (${hint})`);
  return import(pathToFileURL(file).href);
}

/**
 * Answers run.mjs's `memory` request: the resident set before a GC, and (with --expose-gc, which
 * forkServer passes) the live heap after one, what the data really takes.
 */
export function sendMemory() {
  const rss = process.memoryUsage().rss;
  globalThis.gc?.();
  process.send({ memory: { ...process.memoryUsage(), rss, liveHeap: process.memoryUsage().heapUsed } });
}
