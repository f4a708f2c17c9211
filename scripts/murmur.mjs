#!/usr/bin/env node
// The root npm scripts all come here. On a fresh machine that has only Node and npm, this installs the
// workspace with the pinned pnpm (fetched through npx, so no global install is needed), builds the
// TypeScript project references, and then runs the command. Nothing here is specific to one service.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jestConfig from '../jest.config.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmSpec = pkg.packageManager; // e.g. pnpm@10.34.8
const stampFile = join(root, 'node_modules', '.murmur-install-stamp');
const isWindows = process.platform === 'win32';

function fail(message) {
  console.error(`murmur: ${message}`);
  process.exit(1);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19))
    fail(`Node >= 20.19 is required (this is ${process.version}).`);
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: isWindows, ...opts });
  if (res.error) fail(`could not run ${cmd}: ${res.error.message}`);
  return res.status ?? 1;
}

function must(cmd, args, opts) {
  const status = run(cmd, args, opts);
  if (status !== 0) process.exit(status);
}

function pnpm(args) {
  return must('npx', ['--yes', pnpmSpec, ...args]);
}

/** Fingerprint of everything that decides what gets installed. */
function installFingerprint() {
  const h = createHash('sha256');
  const files = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc'];
  for (const ws of ['libs', 'services']) {
    const dir = join(root, ws);
    if (existsSync(dir)) for (const d of readdirSync(dir)) files.push(join(ws, d, 'package.json'));
  }
  files.push(
    'gateway/package.json',
    'cli/package.json',
    'test-e2e/package.json',
    'bench/package.json',
    'deploy/package.json',
  );
  for (const f of files) {
    const p = join(root, f);
    h.update(f);
    if (existsSync(p)) h.update(readFileSync(p));
  }
  h.update(process.version.split('.')[0]);
  return h.digest('hex');
}

function ensureInstalled() {
  const want = installFingerprint();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want) return;
  console.error('murmur: installing dependencies (pnpm)…');
  const frozen = existsSync(join(root, 'pnpm-lock.yaml')) ? ['--frozen-lockfile'] : [];
  pnpm(['install', ...frozen, '--reporter=append-only']);
  writeFileSync(stampFile, want);
}

function tsc(args) {
  return run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...args]);
}

function build() {
  const status = tsc(['-b', 'tsconfig.json']);
  if (status !== 0) fail('the TypeScript build failed (see above).');
  generateGatewayRoutes();
}

const isCI = Boolean(process.env.CI) && process.env.CI !== 'false';

// The gateway's route table is generated from the routes the services register
// (scripts/generate-gateway-routes.mjs, which reads the build): a build brings it up to date, and
// compiles the gateway again when it changed, so a new endpoint is routed without another step. Under CI
// it is only checked: regenerated there, it would hide that the committed one is stale, and images are
// built from the committed one (Dockerfile).
function generateGatewayRoutes() {
  const file = join(root, 'gateway/src/routes.generated.ts');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const script = join(root, 'scripts/generate-gateway-routes.mjs');
  if (run(process.execPath, [script, ...(isCI ? ['--check'] : [])]) !== 0)
    fail("the gateway's route table could not be generated or is out of date (see above).");
  if (readFileSync(file, 'utf8') !== before && tsc(['-b', 'tsconfig.json']) !== 0)
    fail('the TypeScript build failed (see above).');
}

/** Jest's counts from its --json results file (zeros when it wrote none). */
function jestCounts(resultsFile) {
  if (!existsSync(resultsFile)) return { passed: 0, failed: 0, skipped: 0, broken: 0 };
  const r = JSON.parse(readFileSync(resultsFile, 'utf8'));
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    broken: r.numRuntimeErrorTestSuites ?? 0,
  };
}

function jestSummary(counts) {
  // The plain closing line CI reads, after jest's own summary.
  console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  if (counts.broken > 0) console.log(`suites that failed to run: ${counts.broken}`);
}

/** One jest run; returns its exit status and counts. */
function jestPass(extra) {
  const resultsFile = join(root, '.jest-results.json');
  rmSync(resultsFile, { force: true });
  const args = [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    join(root, 'node_modules/jest/bin/jest.js'),
    '--json',
    `--outputFile=${resultsFile}`,
    ...extra,
  ];
  const status = run(process.execPath, args);
  return { status, counts: jestCounts(resultsFile) };
}

function runJest(extra) {
  const { status, counts } = jestPass(extra);
  jestSummary(counts);
  return status;
}

// The chaos suite kills, pauses and restarts its processes on their ports and loads both cores for a
// minute: beside it, other multi-process suites met a port taken between freePort and listen, or a bus
// request with no responder for a moment. The whole suite therefore runs it alone, after the rest.
const CHAOS_SUITE = 'test-e2e/chaos';

function runWholeSuite() {
  // The CLI's patterns replace the config's: the config's, and the chaos suite's.
  const ignored = [...jestConfig.testPathIgnorePatterns, `/${CHAOS_SUITE}/`];
  const rest = jestPass(['--testPathIgnorePatterns', ...ignored]);
  const chaos = jestPass([CHAOS_SUITE]);
  const counts = {};
  for (const key of Object.keys(rest.counts)) counts[key] = rest.counts[key] + chaos.counts[key];
  jestSummary(counts);
  return rest.status !== 0 ? rest.status : chaos.status;
}

// The single process's heap floor (libs/core/src/heap.ts; deploy/test checks that the two agree).
const SINGLE_PROCESS_NODE_FLAGS = ['--initial-old-space-size=128'];

function startForeground(entry, args, nodeFlags = []) {
  const child = spawn(process.execPath, [...nodeFlags, entry, ...args], { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

checkNode();
const [command = 'start', ...rest] = process.argv.slice(2);
switch (command) {
  case 'start':
    ensureInstalled();
    build();
    startForeground(join(root, 'cli/dist/main.js'), ['start', ...rest], SINGLE_PROCESS_NODE_FLAGS);
    break;
  case 'test':
    ensureInstalled();
    build();
    // With arguments (paths, jest options) one jest run as asked; without, the whole suite.
    process.exit(rest.length > 0 ? runJest(rest) : runWholeSuite());
    break;
  case 'build':
    ensureInstalled();
    build();
    break;
  case 'typecheck':
    ensureInstalled();
    build();
    process.exit(tsc(['-p', 'tsconfig.tests.json']));
    break;
  case 'lint':
    ensureInstalled();
    process.exit(
      run(process.execPath, [
        join(root, 'node_modules/eslint/bin/eslint.js'),
        '--max-warnings=0',
        '.',
        ...rest,
      ]) || run(process.execPath, [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '.']),
    );
    break;
  case 'format':
    ensureInstalled();
    process.exit(
      run(process.execPath, [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--write', '.']),
    );
    break;
  case 'bench': {
    // `npm run bench` runs the gateway benchmark; `npm run bench -- <name> [options]` bench/<name>/run.mjs.
    ensureInstalled();
    build();
    const [which, ...options] = rest[0] && !rest[0].startsWith('-') ? rest : ['gateway', ...rest];
    const script = join(root, 'bench', which, 'run.mjs');
    if (!existsSync(script)) {
      const known = readdirSync(join(root, 'bench'), { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(join(root, 'bench', d.name, 'run.mjs')))
        .map((d) => d.name);
      fail(`no benchmark "${which}" (bench/<name>/run.mjs): ${known.join(', ')}`);
    }
    process.exit(run(process.execPath, [script, ...options]));
    break;
  }
  case 'chaos': {
    // The chaos suite longer than CI runs it: `npm run chaos -- --seconds 300 [--kill-every-ms 3000]
    // [--seed 7]` (test-e2e/chaos; docs/operations.md "Failure and recovery").
    ensureInstalled();
    build();
    const flag = (name) => {
      const i = rest.indexOf(`--${name}`);
      return i === -1 ? undefined : rest[i + 1];
    };
    process.env.CHAOS_SECONDS = flag('seconds') ?? '300';
    if (flag('kill-every-ms')) process.env.CHAOS_KILL_EVERY_MS = flag('kill-every-ms');
    if (flag('seed')) process.env.CHAOS_SEED = flag('seed');
    process.exit(runJest(['test-e2e/chaos']));
    break;
  }
  case 'fuzz':
    // The property-based fuzzers, longer and with a random seed (scripts/fuzz.mjs; docs/security.md).
    ensureInstalled();
    process.exit(run(process.execPath, [join(root, 'scripts/fuzz.mjs'), ...rest]));
    break;
  case 'murmur':
    // The operator CLI from the repository: `npm run murmur -- users create …` is not a script; use `node cli/dist/main.js`.
    ensureInstalled();
    build();
    startForeground(
      join(root, 'cli/dist/main.js'),
      rest,
      rest[0] === 'start' ? SINGLE_PROCESS_NODE_FLAGS : [],
    );
    break;
  default:
    fail(`unknown command "${command}" (start, test, build, typecheck, lint, format, bench, fuzz, chaos)`);
}
