#!/usr/bin/env node
// A MongoDB-wire server for the MongoDB suites, on a machine that has PostgreSQL and Go but no MongoDB:
// FerretDB 1.24 (tools/ferretdb, docs/adr/0021-ferretdb-for-the-mongodb-suites.md), built once into a
// cache directory, started on a free loopback port over the local PostgreSQL in a database of its own,
// which is dropped when it stops.
//
//   node scripts/ferretdb.mjs -- npm test          runs the command with MONGO_URL set, then stops FerretDB
//   node scripts/ferretdb.mjs                      prints MONGO_URL=… and serves until Ctrl-C
//   node scripts/ferretdb.mjs --build              only builds (or finds) the binary and prints its path
//
// Variables: FERRETDB_POSTGRESQL_URL (postgres://postgres@127.0.0.1:5432/postgres: the server, and the
// database to connect to for CREATE/DROP DATABASE), MURMUR_FERRETDB_BIN (a binary to use instead of
// building one), MURMUR_CACHE_DIR (default $XDG_CACHE_HOME/murmur or ~/.cache/murmur), GO (the go command).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const toolDir = join(root, 'tools', 'ferretdb');
const FERRETDB_VERSION = /github\.com\/FerretDB\/FerretDB (v\S+)/.exec(
  readFileSync(join(toolDir, 'go.mod'), 'utf8'),
)[1];
const pgUrl = process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** Databases are named <prefix><pid>_<random>, so a later run can drop those a killed run left. */
const DB_PREFIX = 'murmur_ferretdb_';

function fail(message) {
  console.error(`ferretdb: ${message}`);
  process.exit(1);
}

function cacheDir() {
  if (process.env.MURMUR_CACHE_DIR) return process.env.MURMUR_CACHE_DIR;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'murmur');
}

function goCommand() {
  if (process.env.GO) return process.env.GO;
  const onPath = spawnSync('go', ['version'], { stdio: 'ignore' });
  if (onPath.status === 0) return 'go';
  if (existsSync('/usr/local/go/bin/go')) return '/usr/local/go/bin/go';
  return undefined;
}

/** Every file that decides what gets built: tools/ferretdb's Go files and module, and its patches. */
function sourceFiles() {
  const patches = join(toolDir, 'patches');
  return [
    ...readdirSync(toolDir)
      .filter((f) => /\.(go|mod|sum)$/.test(f) && !f.endsWith('_test.go'))
      .map((f) => join(toolDir, f)),
    ...(existsSync(patches)
      ? readdirSync(patches)
          .filter((f) => f.endsWith('.patch'))
          .map((f) => join(patches, f))
      : []),
  ].sort();
}

function mustRun(cmd, args, options) {
  const res = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options });
  if (res.status !== 0) fail(`${cmd} ${args.join(' ')} failed (exit ${res.status ?? res.error?.message})`);
  return res.stdout;
}

/** Makes a copied tree writable (the module cache's files are read-only). */
function makeWritable(dir) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(path);
    else chmodSync(path, 0o644);
  }
}

/**
 * The binary for the current sources of tools/ferretdb: built once, then found in the cache. The FerretDB
 * module is copied out of Go's module cache, tools/ferretdb/patches/*.patch are applied to the copy, and
 * the command is built against it (a `replace` in a copy of go.mod, so the committed one stays plain).
 */
function binary() {
  if (process.env.MURMUR_FERRETDB_BIN) return process.env.MURMUR_FERRETDB_BIN;
  const h = createHash('sha256');
  for (const f of sourceFiles()) h.update(f.slice(toolDir.length)).update(readFileSync(f));
  const dir = join(cacheDir(), `ferretdb-${FERRETDB_VERSION}-${h.digest('hex').slice(0, 12)}`);
  const bin = join(dir, 'murmur-ferretdb');
  if (existsSync(bin)) return bin;
  const go = goCommand();
  if (!go) fail('Go is needed to build FerretDB once (https://go.dev/dl/), or set MURMUR_FERRETDB_BIN.');
  console.error(`ferretdb: building FerretDB ${FERRETDB_VERSION} into ${dir} (once; a few minutes)…`);
  const started = Date.now();
  const work = join(dir, `build-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const module = JSON.parse(
    mustRun(go, ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@${FERRETDB_VERSION}`], {
      cwd: toolDir,
    }),
  );
  const src = join(work, 'FerretDB');
  cpSync(module.Dir, src, { recursive: true });
  makeWritable(src);
  for (const patch of sourceFiles().filter((f) => f.endsWith('.patch'))) {
    // git apply works outside a repository too, like patch(1).
    mustRun('git', ['apply', '-p1', patch], { cwd: src });
  }
  writeFileSync(
    join(work, 'go.mod'),
    `${readFileSync(join(toolDir, 'go.mod'), 'utf8')}\nreplace github.com/FerretDB/FerretDB => ${src}\n`,
  );
  writeFileSync(join(work, 'go.sum'), readFileSync(join(toolDir, 'go.sum')));
  const partial = join(work, 'murmur-ferretdb');
  // ferretdb_no_sqlite: only the PostgreSQL backend is used; SQLite's Go port alone takes minutes to compile.
  const res = spawnSync(
    go,
    [
      'build',
      `-modfile=${join(work, 'go.mod')}`,
      '-trimpath',
      '-tags',
      'ferretdb_no_sqlite',
      '-o',
      partial,
      '.',
    ],
    { cwd: toolDir, stdio: 'inherit' },
  );
  if (res.status !== 0) fail(`go build failed (exit ${res.status ?? res.error?.message})`);
  renameSync(partial, bin);
  rmSync(work, { recursive: true, force: true });
  console.error(`ferretdb: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return bin;
}

/** Starts FerretDB; resolves once it listens, with its URL and a stop function. */
function start(bin) {
  const database = `${DB_PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`;
  const logFile = join(tmpdir(), `${database}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(
    bin,
    [
      '--listen-addr=127.0.0.1:0',
      `--postgresql-url=${pgUrl}`,
      `--database=${database}`,
      `--drop-stale=${DB_PREFIX}`,
      '--log-level=error',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr.pipe(log);
  const tail = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '');
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`FerretDB did not start within 60 s:\n${tail()}`));
    }, 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const url = /^MONGO_URL=(\S+)$/m.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        database,
        logFile,
        exited,
        tail,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const timeout = setTimeout(() => child.kill('SIGKILL'), 30_000);
            await exited;
            clearTimeout(timeout);
          }
          log.end();
          rmSync(logFile, { force: true });
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`FerretDB exited (${code}) before it listened:\n${tail()}`));
    });
  });
}

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const own = dashes === -1 ? args : args.slice(0, dashes);
const command = dashes === -1 ? [] : args.slice(dashes + 1);
for (const a of own) if (a !== '--build') fail(`unknown option ${a} (--build, or -- <command>)`);

const bin = binary();
if (own.includes('--build')) {
  console.log(bin);
  process.exit(0);
}

let server;
try {
  server = await start(bin);
} catch (err) {
  fail(`${err.message}\nIs PostgreSQL running at ${pgUrl}? (FERRETDB_POSTGRESQL_URL names another one.)`);
}
console.error(
  `ferretdb: FerretDB ${FERRETDB_VERSION} at ${server.url} (PostgreSQL database ${server.database})`,
);
void server.exited.then((code) => {
  if (stopping) return;
  console.error(`ferretdb: FerretDB stopped unexpectedly (${code}):\n${server.tail()}`);
  process.exitCode = 1;
});
let stopping = false;

if (command.length === 0) {
  console.log(`MONGO_URL=${server.url}`);
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, async () => {
      stopping = true;
      await server.stop();
      process.exit(0);
    });
  }
} else {
  const child = spawn(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, MONGO_URL: server.url },
    shell: process.platform === 'win32',
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', async (code, signal) => {
    stopping = true;
    await server.stop();
    process.exit(code ?? (signal ? 1 : 0));
  });
}
