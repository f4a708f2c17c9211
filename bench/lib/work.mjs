// Counting the work of a benchmark's server process instead of timing it (the machine is shared, so
// wall time measures the neighbours too): CPU time (process.cpuUsage), SQLite statements run per
// database, COMMITs, and fdatasyncs. `installWorkCounters()` patches better-sqlite3's Statement
// methods and fs/promises' FileHandle.datasync in this process (a few hundred nanoseconds per call);
// `workSnapshot()` returns the totals so far, and `workDelta(a, b)` what happened between two.
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const counts = {
  /** Statements run, by database (its file name, or `:memory:`). */
  statements: {},
  /** COMMITs, by database. */
  commits: {},
  fsyncs: 0,
  /** Statements run, by database and SQL text (`<db> | <sql>`). */
  sources: {},
};
let installed = false;

export async function installWorkCounters() {
  if (installed) return;
  installed = true;
  const require = createRequire(join(root, 'libs/store-embedded/package.json'));
  const Database = require('better-sqlite3');
  const probe = new Database(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = Statement[method];
    Statement[method] = function counted(...args) {
      const db = this.database?.name ?? '?';
      counts.statements[db] = (counts.statements[db] ?? 0) + 1;
      const key = `${db} | ${this.source}`;
      counts.sources[key] = (counts.sources[key] ?? 0) + 1;
      if (this.source === 'COMMIT') counts.commits[db] = (counts.commits[db] ?? 0) + 1;
      return original.apply(this, args);
    };
  }
  const handle = await open(fileURLToPath(import.meta.url), 'r');
  const FileHandle = Object.getPrototypeOf(handle);
  await handle.close();
  const datasync = FileHandle.datasync;
  FileHandle.datasync = function counted(...args) {
    counts.fsyncs++;
    return datasync.apply(this, args);
  };
}

export function workSnapshot() {
  const cpu = process.cpuUsage();
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    statements: { ...counts.statements },
    commits: { ...counts.commits },
    fsyncs: counts.fsyncs,
    sources: { ...counts.sources },
  };
}

/** What happened between snapshots `a` and `b`, with totals over every database. */
export function workDelta(a, b) {
  const diff = (x, y) =>
    Object.fromEntries(
      Object.keys(y)
        .map((k) => [k, (y[k] ?? 0) - (x[k] ?? 0)])
        .filter(([, v]) => v > 0),
    );
  const statements = diff(a.statements, b.statements);
  const commits = diff(a.commits, b.commits);
  const sum = (o) => Object.values(o).reduce((s, v) => s + v, 0);
  return {
    cpuMs: b.cpuMs - a.cpuMs,
    statements,
    statementsTotal: sum(statements),
    commits,
    commitsTotal: sum(commits),
    fsyncs: b.fsyncs - a.fsyncs,
    sources: diff(a.sources ?? {}, b.sources ?? {}),
  };
}
