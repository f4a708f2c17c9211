#!/usr/bin/env node
// Where a V8 CPU profile (`node --cpu-prof`, e.g. `bench/reader/run.mjs --cpu-prof=<dir>`) spent its
// time: self time by area (a workspace package's folder, a dependency, node's internals, GC, the
// native side of better-sqlite3…) and by function, largest first, as a share of the profile.
// `--inclusive=f,g`: also the time spent in (or under) functions of those names, each sample counted
// once per name (for an async function, its synchronous stretches only).
// `--from=S --to=S`: only the samples between those seconds of the profile (e.g. a benchmark's
// measurement phase after its seeding).
//   node bench/lib/profile-top.mjs <file.cpuprofile> [--top=40] [--inclusive=pollFeed,parseFetched] [--from=60]
import { readFileSync } from 'node:fs';
import { option } from './cli.mjs';

const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!file) throw new Error('usage: node bench/lib/profile-top.mjs <file.cpuprofile> [--top=40]');
const TOP = Number(option('top', '40'));
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const INCLUSIVE = option('inclusive', '').split(',').filter(Boolean);
const FROM_US = Number(option('from', '0')) * 1e6;
const TO_US = Number(option('to', 'Infinity')) * 1e6;
const parents = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
const inclusive = new Map(INCLUSIVE.map((name) => [name, 0]));

/** `services/reader`, `libs/store-embedded`, `npm:better-sqlite3`, `node:internal`… */
function areaOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const dep = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dep) return `npm:${dep[1]}`;
  const ws = /\/((?:services|libs|gateway|bench)\/[^/]+)\//.exec(url);
  if (ws) return ws[1];
  if (url.startsWith('node:')) return url.split('/')[0];
  return url;
}

const byFunction = new Map();
const byArea = new Map();
let total = 0;
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (at < FROM_US || at > TO_US) continue;
  total += dt;
  const { functionName, url, lineNumber } = nodes.get(profile.samples[i]).callFrame;
  const area = areaOf(url, functionName);
  const where = url.replace(/^.*\/(services|libs|gateway|bench|node_modules)\//, '$1/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + dt);
  byArea.set(area, (byArea.get(area) ?? 0) + dt);
  if (INCLUSIVE.length > 0) {
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parents.get(id)) {
      const name = nodes.get(id).callFrame.functionName;
      if (inclusive.has(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, inclusive.get(name) + dt);
      }
    }
  }
}

const show = (title, map, top) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${((v / total) * 100).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`,
    );
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
show('self time by area', byArea, 25);
show('self time by function', byFunction, TOP);
if (INCLUSIVE.length > 0) show('inclusive time', inclusive, INCLUSIVE.length);
