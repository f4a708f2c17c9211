// Blog-archive ZIPs (docs/api/archive.md "Importing", docs/security.md "ZIP imports"): read with
// yauzl from the central directory; the whole archive is refused when any entry breaks a limit — more
// than 10,000 entries, more than 500 MiB uncompressed in total, an entry expanding more than 100:1,
// an absolute or `..` path, a symbolic link, encryption. Only `feed.json` (at the root or in the one
// top folder) is ever decompressed; uploads and HTML are ignored. yauzl checks while inflating that
// an entry yields exactly the size its header declares, so a lying header fails too.
import yauzl from 'yauzl';
import type { RawItem } from '../items.js';
import { ImportError } from './errors.js';
import { parseJsonFeed } from './jsonfeed.js';

export const ZIP_LIMITS = {
  entries: 10_000,
  totalBytes: 500 * 1024 * 1024,
  ratio: 100,
  /** The one entry we decompress is held in memory to be parsed. */
  feedBytes: 200 * 1024 * 1024,
} as const;

interface Listed {
  name: string;
  entry: yauzl.Entry;
}

function open(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      bytes,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true },
      (err, zipfile) =>
        err ? reject(new ImportError(`Not a readable ZIP: ${err.message}`)) : resolve(zipfile),
    );
  });
}

/** Why a name cannot be an entry of an archive we read, or null. */
function unsafePath(name: string): string | null {
  const path = name.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'an absolute path';
  if (path.split('/').some((segment) => segment === '..')) return 'a ".." path';
  if (path.includes('\u0000')) return 'a NUL in a name';
  return null;
}

function check(entry: yauzl.Entry, name: string, total: { bytes: number }): void {
  const why = unsafePath(name);
  if (why)
    throw new ImportError(`The ZIP is refused: entry ${JSON.stringify(name.slice(0, 200))} has ${why}.`);
  const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (mode === 0o120000)
    throw new ImportError(`The ZIP is refused: entry ${JSON.stringify(name)} is a symbolic link.`);
  if ((entry.generalPurposeBitFlag & 0x1) !== 0)
    throw new ImportError('The ZIP is refused: it is encrypted.');
  const size = entry.uncompressedSize;
  if (size > 0 && (entry.compressedSize === 0 || size / entry.compressedSize > ZIP_LIMITS.ratio)) {
    throw new ImportError(
      `The ZIP is refused: entry ${JSON.stringify(name)} expands more than ${ZIP_LIMITS.ratio}:1.`,
    );
  }
  total.bytes += size;
  if (total.bytes > ZIP_LIMITS.totalBytes) {
    throw new ImportError(
      `The ZIP is refused: it expands to more than ${ZIP_LIMITS.totalBytes / 1024 / 1024} MiB.`,
    );
  }
}

function listEntries(zipfile: yauzl.ZipFile): Promise<Listed[]> {
  if (zipfile.entryCount > ZIP_LIMITS.entries) {
    zipfile.close();
    return Promise.reject(new ImportError(`The ZIP is refused: more than ${ZIP_LIMITS.entries} entries.`));
  }
  return new Promise((resolve, reject) => {
    const listed: Listed[] = [];
    const total = { bytes: 0 };
    const fail = (err: Error) => {
      zipfile.close();
      reject(err instanceof ImportError ? err : new ImportError(`Not a readable ZIP: ${err.message}`));
    };
    zipfile.on('error', fail);
    zipfile.on('entry', (entry: yauzl.Entry) => {
      const raw = entry.fileName as unknown as Buffer;
      // Bit 11: the name is UTF-8; otherwise CP437, whose ASCII part (all the checks need) is the same.
      const name =
        (entry.generalPurposeBitFlag & 0x800) !== 0 ? raw.toString('utf8') : raw.toString('latin1');
      try {
        check(entry, name, total);
      } catch (err) {
        fail(err as Error);
        return;
      }
      listed.push({ name, entry });
      zipfile.readEntry();
    });
    zipfile.on('end', () => resolve(listed));
    zipfile.readEntry();
  });
}

/** `feed.json` at the root, or in the archive's one top folder. */
function findFeed(listed: Listed[]): Listed | undefined {
  const root = listed.find((l) => l.name === 'feed.json');
  if (root) return root;
  const tops = new Set(listed.map((l) => l.name.split('/')[0]));
  if (tops.size !== 1) return undefined;
  const [top] = tops;
  return listed.find((l) => l.name === `${top}/feed.json`);
}

function readEntry(zipfile: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (err, stream) => {
      if (err) return reject(new ImportError(`feed.json cannot be read: ${err.message}`));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > entry.uncompressedSize || size > ZIP_LIMITS.feedBytes) {
          stream.destroy(new Error('feed.json is larger than its header says'));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (e: Error) => reject(new ImportError(`feed.json cannot be read: ${e.message}`)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

export async function parseBlogZip(bytes: Buffer): Promise<RawItem[]> {
  const zipfile = await open(bytes);
  const listed = await listEntries(zipfile);
  try {
    const feed = findFeed(listed);
    if (!feed) throw new ImportError('The ZIP has no feed.json at its root or in its top folder.');
    if (feed.entry.uncompressedSize > ZIP_LIMITS.feedBytes) {
      throw new ImportError(`feed.json is larger than ${ZIP_LIMITS.feedBytes / 1024 / 1024} MiB.`);
    }
    return await parseJsonFeed(await readEntry(zipfile, feed.entry), 'feed.json');
  } finally {
    zipfile.close();
  }
}
