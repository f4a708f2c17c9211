#!/usr/bin/env node
// Longer fuzzing runs than CI's: the property-based fuzzers (docs/security.md, "What the security harness
// covers") with a random seed, printed first and last so any failure can be replayed exactly.
//   npm run fuzz                       random seed, 2,000 cases per property
//   npm run fuzz -- --runs 20000       more cases
//   npm run fuzz -- --seed 1234        replay a seed
//   npm run fuzz -- --runs 500 params  only the files whose path matches "params"
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Each lib keeps its fuzzers in libs/<name>/test/fuzz/.
const LIB_FUZZ = readdirSync(join(root, 'libs'))
  .map((lib) => `libs/${lib}/test/fuzz`)
  .filter((dir) => existsSync(join(root, dir)));
const FILES = [
  ...LIB_FUZZ.flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f}`),
  ),
  'services/publishing/test/fuzz-xmlrpc-codec.test.ts',
  'services/reader/test/fuzz-feed-parsing.test.ts',
];

function usage(message) {
  console.error(`fuzz: ${message}\nusage: npm run fuzz -- [--runs N] [--seed N] [path filter]`);
  process.exit(2);
}

let seed = randomInt(1, 2 ** 31 - 1);
let runs = 2000;
const filters = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--runs' || a === '--seed') {
    const n = Number(args[++i]);
    if (!Number.isSafeInteger(n) || n < 1) usage(`${a} needs a positive integer`);
    if (a === '--runs') runs = n;
    else seed = n;
  } else if (a.startsWith('-')) usage(`unknown option ${a}`);
  else filters.push(a);
}

const files = filters.length === 0 ? FILES : FILES.filter((f) => filters.some((p) => f.includes(p)));
if (files.length === 0) usage(`no fuzz file matches ${filters.join(', ')} (files: ${FILES.join(', ')})`);

console.log(`fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${runs}`);
const res = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    join(root, 'node_modules/jest/bin/jest.js'),
    '--runTestsByPath',
    ...files.map((f) => join(root, f)),
    '--testTimeout=3600000',
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_RUNS: String(runs) } },
);
const status = res.status ?? 1;
console.log(
  status === 0
    ? `fuzz: passed with FUZZ_SEED=${seed} FUZZ_RUNS=${runs}`
    : `fuzz: FAILED with FUZZ_SEED=${seed} FUZZ_RUNS=${runs} — replay: npm run fuzz -- --seed ${seed} --runs ${runs}`,
);
process.exit(status);
