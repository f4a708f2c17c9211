// Reading the data files of the nedb engine that earlier versions used (one-way import on open,
// sqlite-migrate.ts; docs/adr/0017-embedded-store-sqlite.md). The format, as those versions wrote it:
// one JSON line per write, appended — a document (dates as `{"$$date": ms}`, its index keys in hidden
// `__ix_<name>` fields), `{"$$deleted": true, "_id": …}` for a removal, `{"$$indexCreated": …}` for
// nedb's own index declarations — the last line for an `_id` wins. A compaction rewrote the file as
// `<name>.db~` and renamed it over `<name>.db`, so a crash between leaves only the `~` file. The
// index definitions lived in `system.indexes.db`, one line `{_id, collection, spec}` per index.
import { isPlainObject, type Plain } from '@murmur/store';
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { IndexSpec } from './embedded-indexes.js';
import { decodeDoc } from './sqlite-collection.js';
import { encodeKey } from './values.js';

/** Fields the nedb engine kept its index keys in; recomputed by SQLite's own index tables. */
const HIDDEN_PREFIX = '__ix_';

/** The live documents of one nedb data file (`<name>.db`, or its `~` copy), hidden fields removed. */
export async function readNedbCollection(file: string): Promise<Plain[]> {
  const byId = new Map<string, Plain>();
  for (const doc of await readLines(await existingCopy(file))) {
    if (doc._id === undefined) continue;
    // `_id` 0 and '' are ids, and 1 and '1' are two (nedb's own loader got both wrong).
    const key = encodeKey(doc._id);
    if (doc.$$deleted === true) {
      byId.delete(key);
      continue;
    }
    for (const k of Object.keys(doc)) if (k.startsWith(HIDDEN_PREFIX)) delete doc[k];
    byId.set(key, doc);
  }
  return [...byId.values()];
}

/** The index definitions of `system.indexes.db`, by collection (the last line for an index wins). */
export async function readNedbCatalog(file: string): Promise<Map<string, IndexSpec[]>> {
  const byId = new Map<string, { collection: string; spec: IndexSpec }>();
  for (const row of await readLines(await existingCopy(file))) {
    if (typeof row._id !== 'string') continue;
    if (row.$$deleted === true) byId.delete(row._id);
    else if (
      typeof row.collection === 'string' &&
      isPlainObject(row.spec) &&
      typeof row.spec.name === 'string'
    )
      byId.set(row._id, { collection: row.collection, spec: row.spec as unknown as IndexSpec });
  }
  const catalog = new Map<string, IndexSpec[]>();
  for (const { collection, spec } of byId.values())
    catalog.set(collection, [...(catalog.get(collection) ?? []), spec]);
  return catalog;
}

/** `file`, or the compaction's `file~` when only that is there; undefined when neither is. */
async function existingCopy(file: string): Promise<string | undefined> {
  for (const candidate of [file, `${file}~`]) {
    try {
      await access(candidate);
      return candidate;
    } catch {
      // Try the next one.
    }
  }
  return undefined;
}

async function readLines(file: string | undefined): Promise<Plain[]> {
  if (!file) return [];
  const rows: Plain[] = [];
  let lines = 0;
  let corrupt = 0;
  let lastCorrupt = false;
  const input = createReadStream(file, { encoding: 'utf8' });
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (line === '') continue;
    lines += 1;
    lastCorrupt = true;
    try {
      const row = decodeDoc(line);
      if (isPlainObject(row)) {
        rows.push(row);
        lastCorrupt = false;
      } else corrupt += 1;
    } catch {
      corrupt += 1;
    }
  }
  // A last line cut short by a crash mid-append was never acknowledged: it is skipped. Beyond it, a
  // few bad lines are tolerated as nedb did; many mean the file is not what we think it is.
  if (lastCorrupt) {
    lines -= 1;
    corrupt -= 1;
  }
  if (lines > 0 && corrupt / lines > 0.1) {
    throw new Error(
      `${Math.floor((100 * corrupt) / lines)}% of ${file} is corrupt; refusing to start to prevent data loss`,
    );
  }
  return rows;
}
