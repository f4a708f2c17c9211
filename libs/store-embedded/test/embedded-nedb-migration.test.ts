// A `DATA_DIR` written by the nedb engine of earlier versions is imported into SQLite when the store
// opens (docs/adr/0017-embedded-store-sqlite.md): every document, id type and index definition is
// kept, one log line says what happened and where the old files went, and a directory that cannot be
// read is refused with a message naming the fix and left as it was. The files in fixtures/nedb-reader
// were written by that engine (its last version, before it left the code base) and not compacted:
// an update and a removal are appended lines, and nedb's own index lines are there too.
import { appendFile, copyFile, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { StoreMigrationError } from '../src/sqlite-migrate.js';
import { openStore } from '@murmur/runtime';
import { DuplicateKeyError, type Store } from '@murmur/store';

let dir: string;
const opened: Store[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'murmur-migrate-'));
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

const FIXTURES = fileURLToPath(new URL('./fixtures/nedb-reader/', import.meta.url));
const FILES = ['counters.db', 'subscriptions.db', 'system.indexes.db'];

/** A directory as the nedb engine left it: the reader's, with two collections and their indexes. */
async function writeNedbDirectory(): Promise<void> {
  await mkdir(join(dir, 'reader'));
  for (const f of FILES) await copyFile(join(FIXTURES, f), join(dir, 'reader', f));
}

function capture() {
  const lines: { details: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    logger: { warn: (details: Record<string, unknown>, message: string) => lines.push({ details, message }) },
  };
}

describe('opening a directory of nedb data files', () => {
  it('migrates every document and index to store.sqlite, logs it once, and keeps the old files aside', async () => {
    await writeNedbDirectory();
    const { lines, logger } = capture();
    const store = await openStore(`file:${dir}`, { service: 'reader', logger });
    opened.push(store);

    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toMatch(
      /^embedded store: migrated 4 documents in 2 collections from nedb data files to .*store\.sqlite; the old files are in .*nedb-migrated-/,
    );
    expect(lines[0]!.details).toMatchObject({ collections: 2, documents: 4 });
    const files = await readdir(join(dir, 'reader'));
    expect(files.filter((f) => f.endsWith('.db'))).toEqual([]);
    const backup = files.find((f) => f.startsWith('nedb-migrated-'))!;
    expect((await readdir(join(dir, 'reader', backup))).sort()).toEqual([
      'counters.db',
      'subscriptions.db',
      'system.indexes.db',
    ]);

    const subs = store.collection('subscriptions');
    expect(await subs.find({}, { sort: { _id: 1 } })).toStrictEqual([
      { _id: 0, userId: 1, feedId: 8, title: 'renamed' },
      { _id: 1, userId: 1, feedId: 7, at: new Date(1_700_000_000_000) },
      { _id: '1', userId: 2, feedId: 7, tags: ['a', 'b'] },
    ]);
    // The unique index came along without the service declaring it again.
    await expect(subs.insertOne({ _id: 9, userId: 1, feedId: 7 })).rejects.toBeInstanceOf(DuplicateKeyError);
    expect((await subs.find({ feedId: 7 })).map((d) => d._id).sort()).toEqual([1, '1']);
    expect(await store.collection('counters').findOne({ _id: 'entries' })).toEqual({
      _id: 'entries',
      seq: 41,
    });

    await store.close();
    opened.splice(0);
    const again = await openStore(`file:${dir}`, { service: 'reader', logger });
    opened.push(again);
    expect(lines).toHaveLength(1);
    expect(await again.collection('subscriptions').countDocuments()).toBe(3);
  });

  it('refuses a directory it cannot read, naming the collection and the fix, and changes nothing', async () => {
    await writeNedbDirectory();
    // More than 10 % unreadable lines: the nedb loader refuses the file.
    await appendFile(join(dir, 'reader', 'counters.db'), 'garbage\n'.repeat(5));
    const { lines, logger } = capture();
    const failure = await openStore(`file:${dir}`, { service: 'reader', logger }).then(
      () => new Error('opened'),
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StoreMigrationError);
    expect((failure as Error).message).toMatch(/cannot migrate the nedb data files.*collection "counters"/);
    expect((failure as Error).message).toMatch(/move the \*\.db files out of/);
    expect(lines).toEqual([]);
    expect((await readdir(join(dir, 'reader'))).filter((f) => f.endsWith('.db')).sort()).toEqual([
      'counters.db',
      'subscriptions.db',
      'system.indexes.db',
    ]);
    // The lock was released: the directory can be opened once the file is fixed.
    await rm(join(dir, 'reader', 'counters.db'));
    const store = await openStore(`file:${dir}`, { service: 'reader', logger });
    opened.push(store);
    expect(await store.collection('subscriptions').countDocuments()).toBe(3);
    expect(lines).toHaveLength(1);
  });

  it('skips a line cut short by a crash mid-append, and reads a file a compaction left as <name>.db~', async () => {
    await writeNedbDirectory();
    await appendFile(join(dir, 'reader', 'subscriptions.db'), '{"_id":5,"userId":9,"fee');
    await rename(join(dir, 'reader', 'counters.db'), join(dir, 'reader', 'counters.db~'));
    const { lines, logger } = capture();
    const store = await openStore(`file:${dir}`, { service: 'reader', logger });
    opened.push(store);
    expect(lines[0]!.details).toMatchObject({ collections: 2, documents: 4 });
    expect(await store.collection('subscriptions').findOne({ _id: 5 })).toBeNull();
    expect(await store.collection('counters').find({})).toEqual([{ _id: 'entries', seq: 41 }]);
    expect((await readdir(join(dir, 'reader'))).filter((f) => /\.db~?$/.test(f))).toEqual([]);
  });
});
