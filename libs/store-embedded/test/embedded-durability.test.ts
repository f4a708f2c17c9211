// The embedded store's promises about its files (docs/adr/0008-embedded-store-durability.md): one
// process per directory, a lock left by a killed process does not block the restart, every write
// acknowledged before a kill -9 is there after it, and every `_id` survives a reopen.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { StoreLockedError } from '../src/embedded-lock.js';
import { EmbeddedStore } from '../src/embedded.js';
import { openStore } from '@murmur/runtime';
import { type Store } from '@murmur/store';

const here = dirname(fileURLToPath(import.meta.url));
let dir: string;
const opened: Store[] = [];
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-durable-'));
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

const open = async (service = 'child') => {
  const store = await openStore(`file:${dir}`, { service });
  opened.push(store);
  return store;
};

interface Child {
  child: ChildProcess;
  pid: number;
  acked: string[];
  exited: Promise<void>;
}

/** Starts support/store-child.ts on `dir` and resolves once it has the store open. */
function startChild(mode: 'hold' | 'write'): Promise<Child> {
  const child = spawn(
    process.execPath,
    ['--import', join(here, 'support', 'ts-hooks.mjs'), join(here, 'support', 'store-child.ts'), dir, mode],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  const acked: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before it was ready:\n${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [word, value] = line.split(' ') as [string, string];
      if (word === 'ready') resolve({ child, pid: Number(value), acked, exited });
      if (word === 'ack') acked.push(value);
    });
  });
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('one process per store directory', () => {
  it('refuses a second process, naming the directory and the PID holding it; takes over once that process is killed', async () => {
    const holder = await startChild('hold');
    const failure = await openStore(`file:${dir}`, { service: 'child' }).then(
      () => new Error('opened a store another process holds'),
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StoreLockedError);
    expect((failure as Error).message).toContain(join(dir, 'child'));
    expect((failure as Error).message).toContain(`process ${holder.pid}`);

    holder.child.kill('SIGKILL');
    await holder.exited;
    const store = await open();
    await store.collection('docs').insertOne({ _id: 'after' });
    expect(await store.collection('docs').findOne({ _id: 'after' })).toEqual({ _id: 'after' });
  });

  it('takes over a lock whose process is gone, and releases its own on close', async () => {
    const lock = join(dir, 'child', 'murmur.lock');
    await rm(join(dir, 'child'), { recursive: true, force: true });
    // A PID that cannot be running: a finished child's.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => gone.once('exit', r));
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'child'), { recursive: true }));
    await writeFile(lock, JSON.stringify({ pid: gone.pid, host: hostname(), since: 'then' }));
    const store = await EmbeddedStore.open({ service: 'child', location: { kind: 'file', dir } });
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    await store.close();
    await expect(readFile(lock, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('acknowledged writes', () => {
  it('every insert acknowledged before a kill -9 is there after reopening', async () => {
    const writer = await startChild('write');
    await until(() => writer.acked.length >= 400);
    writer.child.kill('SIGKILL');
    await writer.exited;
    const acked = [...writer.acked];
    expect(acked.length).toBeGreaterThanOrEqual(400);

    const store = await open();
    const docs = store.collection('docs');
    const found = new Set((await docs.find({ _id: { $in: acked } })).map((d) => d._id));
    expect(acked.filter((id) => !found.has(id))).toEqual([]);
    // The index still answers after recovery.
    expect(await docs.countDocuments({ n: 7 })).toBe(1);
  });

  it('_id 0, "" and both 1 and "1" survive close and reopen', async () => {
    let store = await open('ids');
    const c = store.collection('things');
    await c.insertMany([{ _id: 0 }, { _id: '' }, { _id: 1, kind: 'number' }, { _id: '1', kind: 'string' }]);
    await c.updateOne({ _id: 0 }, { $set: { touched: true } });
    await store.close();
    opened.splice(opened.indexOf(store), 1);
    store = await open('ids');
    const again = store.collection('things');
    expect(await again.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 0, touched: true },
      { _id: 1, kind: 'number' },
      { _id: '' },
      { _id: '1', kind: 'string' },
    ]);
    await again.deleteMany({ _id: { $in: [1, '1'] } });
    expect(await again.countDocuments()).toBe(2);
  });
});
