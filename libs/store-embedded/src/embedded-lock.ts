// One process per embedded store directory (docs/adr/0008-embedded-store-durability.md). Each
// process keeps the collections' index catalog in memory and runs its own write queue per collection
// (sqlite-collection.ts), so a second process writing the same database would go unseen: the
// directory holds `murmur.lock`, created exclusively (O_EXCL) and naming its holder. A lock whose
// holder is gone — a dead PID on this host, or on another host a file its holder stopped touching —
// is stale and taken over, so a kill -9 never blocks the restart.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { link, mkdir, open, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';

export const LOCK_FILE = 'murmur.lock';
/** The holder touches the lock this often… */
const TOUCH_EVERY_MS = 10_000;
/** …so a lock from another host untouched for this long belongs to a process that is gone. */
const STALE_AFTER_MS = 60_000;

interface Holder {
  pid: number;
  host: string;
  since: string;
}

export class StoreLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: Holder,
  ) {
    super(
      `embedded store ${dir} is in use by process ${holder.pid} on ${holder.host} (since ${holder.since}); ` +
        'only one process may open a store directory — stop it, or give this one its own STORE_URL directory',
    );
    this.name = 'StoreLockedError';
  }
}

export class DirectoryLock {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly dir: string,
    private readonly file: string,
    private readonly content: string,
  ) {}

  /** Takes the directory's lock, or throws StoreLockedError naming the live holder. */
  static async acquire(dir: string): Promise<DirectoryLock> {
    await mkdir(dir, { recursive: true });
    const file = join(dir, LOCK_FILE);
    const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    const content = JSON.stringify(me) + '\n';
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const handle = await open(file, 'wx', 0o644);
        try {
          await handle.writeFile(content, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        const lock = new DirectoryLock(dir, file, content);
        lock.keepFresh();
        return lock;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const seen = await readFile(file, 'utf8').catch(() => '');
      const holder = parseHolder(seen);
      if (holder && !(await isStale(file, holder))) throw new StoreLockedError(dir, holder);
      // Stale (or unreadable: a holder killed between creating and writing it). Move it aside, and
      // if what was moved is not what was judged stale (another process took over meanwhile), put
      // it back; then retry the exclusive create, which only one process wins.
      const aside = `${file}.${process.pid}.stale`;
      if (
        await rename(file, aside).then(
          () => true,
          () => false,
        )
      ) {
        const moved = await readFile(aside, 'utf8').catch(() => '');
        if (moved !== seen) await link(aside, file).catch(() => undefined);
        await unlink(aside).catch(() => undefined);
      }
    }
    throw new Error(`could not take the lock of embedded store ${dir}`);
  }

  private keepFresh(): void {
    this.timer = setInterval(() => {
      const now = new Date();
      utimes(this.file, now, now).catch(() => undefined);
    }, TOUCH_EVERY_MS);
    this.timer.unref();
  }

  /** Removes the lock if it is still ours. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    const current = await readFile(this.file, 'utf8').catch(() => undefined);
    if (current === this.content) await unlink(this.file).catch(() => undefined);
  }
}

function parseHolder(text: string): Holder | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host, since: String(parsed.since ?? 'unknown') };
  } catch {
    return undefined;
  }
}

async function isStale(file: string, holder: Holder): Promise<boolean> {
  if (holder.host === hostname()) {
    // Our own PID: a previous open in this process that never closed (the in-process registry
    // refuses a second open of a directory that is still open), or a container that restarted with
    // the same PID.
    if (holder.pid === process.pid) return true;
    return !isAlive(holder.pid);
  }
  const touched = await stat(file).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  return Date.now() - touched > STALE_AFTER_MS;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** For tests: plants a lock as a given holder would leave it. */
export async function writeLockForTest(dir: string, holder: Holder): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, LOCK_FILE), JSON.stringify(holder) + '\n');
}
