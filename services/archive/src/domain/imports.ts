// Imports (docs/api/archive.md "Importing"): the upload is streamed into the blob store (a temporary
// file that is renamed into place with the default file store, GridFS chunks with MongoDB — never
// held in memory), then parsed by the job `archive.import.run` on whichever replica claims it.
//
// Visibility: a new post is stored with `visibleFrom` = the import's id, and reads only see posts
// with `visibleFrom` ≤ the archive's version; a new version of a post already visible is staged and
// applied only once the whole upload has been parsed. So a failed import never shows any of its
// posts, and the archive's version (its ETag) changes only when an import completes. The posts of a
// failed import are deleted then, and again when the site's next import starts (after a crash).
import type { Readable } from 'node:stream';
import { type BusHeaders } from '@murmur/bus';
import { badRequest, conflict, notFound, payloadTooLarge, randomToken } from '@murmur/core';
import { enqueueJob, type Job } from '@murmur/jobs';
import { BlobTooLargeError } from '@murmur/store';
import type { ImportDoc, ImportKind, PostDoc } from '../store/index.js';
import type { ArchiveContext } from './context.js';
import { ImportError } from './formats/errors.js';
import { jsonFeedItems } from './formats/jsonfeed.js';
import { parseWxr, type Parsed } from './formats/wxr.js';
import { parseBlogZip } from './formats/zip.js';
import { toPost, type RawItem } from './items.js';
import { importRunJob } from './jobs.js';
import { ownedSite, type Caller } from './sites.js';

/** Media types an import accepts, and the format each means. Anything else → 415. */
export const IMPORT_MEDIA_TYPES: Readonly<Record<string, ImportKind>> = {
  'application/json': 'jsonfeed',
  'application/feed+json': 'jsonfeed',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'text/xml': 'wxr',
  'application/xml': 'wxr',
};

export const ALREADY_RUNNING = 'An import is already running.';
export const NO_BODY = 'The import needs a body.';
export const NO_SUCH_IMPORT = 'No such import.';
/** An upload still `receiving` after this long belongs to a request that died with its process. */
const UPLOAD_ABANDONED_AFTER_MS = 10 * 60_000;
/** A running import records progress every batch; one silent this long died on its job's last attempt. */
const RUN_ABANDONED_AFTER_MS = 60 * 60_000;
const BATCH = 500;
/** Items mapped to posts (sanitised) between two turns of the event loop. */
const ITEMS_PER_TURN = 200;

const blobKey = (id: number) => `imports/${id}`;
export const importName = (id: number) => `imp-${id}`;

/** Checks the caller owns the site and claims the site for a new import (409 while one runs). */
export async function beginImport(
  ctx: ArchiveContext,
  input: { siteId: number; caller: Caller; kind: ImportKind; headers: BusHeaders },
): Promise<ImportDoc> {
  const site = await ownedSite(ctx, input.siteId, input.caller, input.headers);
  const now = ctx.clock.now();
  await ctx.store.failAbandoned(
    input.siteId,
    new Date(now.getTime() - UPLOAD_ABANDONED_AFTER_MS),
    new Date(now.getTime() - RUN_ABANDONED_AFTER_MS),
    now,
  );
  const started = await ctx.store.startImport({
    siteId: input.siteId,
    userId: site.userId,
    kind: input.kind,
    status: 'receiving',
    imported: 0,
    skipped: 0,
    error: null,
    siteTitle: site.title ?? site.username,
    siteUrl: site.url,
    createdAt: now,
    updatedAt: now,
  });
  if (!started) throw conflict(ALREADY_RUNNING);
  return started;
}

/** Streams the body into the blob store; over the cap → 413, empty → 400 (and the import is dropped). */
export async function receiveUpload(
  ctx: ArchiveContext,
  imp: ImportDoc,
  body: Readable,
  contentType: string,
) {
  try {
    const stored = await ctx.blobs.put(blobKey(imp._id), body, {
      contentType,
      maxBytes: ctx.config.ARCHIVE_IMPORT_MAX_BYTES,
    });
    if (stored.size === 0) throw badRequest(NO_BODY);
  } catch (err) {
    if (err instanceof BlobTooLargeError) {
      throw payloadTooLarge(`The import is larger than ${ctx.config.ARCHIVE_IMPORT_MAX_BYTES} bytes.`);
    }
    throw err;
  }
}

/** The upload is complete: queue its job. */
export async function queueImport(
  ctx: ArchiveContext,
  imp: ImportDoc,
): Promise<{ id: string; status: 'queued' }> {
  if (!(await ctx.store.markQueued(imp._id, ctx.clock.now())))
    throw badRequest('The upload did not complete.');
  await enqueueJob(ctx.jobs, importRunJob, { importId: imp._id }, { key: `import:${imp._id}` });
  return { id: importName(imp._id), status: 'queued' };
}

/** The request ended before its upload was queued (refused, too large, cut off): free the site. */
export async function abandonUpload(ctx: ArchiveContext, imp: ImportDoc, reason: string): Promise<void> {
  const current = await ctx.store.importById(imp._id);
  if (current?.status !== 'receiving') return;
  await ctx.store.finishImport(imp._id, { status: 'failed', error: reason, updatedAt: ctx.clock.now() });
  await ctx.blobs.delete(blobKey(imp._id));
}

export interface ImportView {
  id: string;
  status: 'queued' | 'running' | 'complete' | 'failed';
  imported: number;
  skipped: number;
  error: string | null;
}

/** An import of the caller's site (another user's, or another site's, is not found); any for the operator. */
export async function importStatus(
  ctx: ArchiveContext,
  siteId: number,
  caller: Caller,
  idText: string,
): Promise<ImportView> {
  const m = /^imp-([1-9]\d{0,14})$/.exec(idText);
  const imp = m ? await ctx.store.importById(Number(m[1])) : null;
  const allowed = 'operator' in caller || imp?.userId === caller.userId;
  if (!imp || imp.siteId !== siteId || !allowed) throw notFound(NO_SUCH_IMPORT);
  const status = imp.status === 'receiving' ? 'queued' : imp.status === 'committing' ? 'running' : imp.status;
  return { id: importName(imp._id), status, imported: imp.imported, skipped: imp.skipped, error: imp.error };
}

// ---- the job ----------------------------------------------------------------------------------

async function* itemsOf(ctx: ArchiveContext, imp: ImportDoc): AsyncGenerator<Parsed[]> {
  const blob = await ctx.blobs.get(blobKey(imp._id));
  if (!blob) throw new ImportError('The uploaded file is gone.');
  const wrap = (items: RawItem[]): Parsed[] => items.map((item) => ({ item }));
  if (imp.kind === 'jsonfeed') for await (const batch of jsonFeedItems(await blob.bytes())) yield wrap(batch);
  else if (imp.kind === 'zip') yield wrap(await parseBlogZip(await blob.bytes()));
  else yield* parseWxr(blob.stream());
}

/**
 * Runs an import: parse, store (new posts hidden, changes of visible ones staged), then commit. A
 * document that cannot be imported ends `failed` at once; a store failure is retried by the queue
 * and, on the last attempt, ends `failed` too. Idempotent: a rerun after a crash starts the parse
 * again, or finishes the commit.
 */
export async function runImport(ctx: ArchiveContext, importId: number, job: Job<unknown>): Promise<void> {
  const imp = await ctx.store.importById(importId);
  if (!imp || imp.status === 'complete' || imp.status === 'failed' || imp.status === 'receiving') return;
  try {
    if (imp.status !== 'committing') await parseAndStore(ctx, imp);
    await commit(ctx, imp);
  } catch (err) {
    if (err instanceof ImportError) return fail(ctx, imp, err.message);
    if (job.attempts >= job.maxAttempts) {
      ctx.logger.error({ err, importId }, 'archive import failed on its last attempt');
      return fail(ctx, imp, 'The import could not be stored; try again.');
    }
    throw err;
  }
}

async function parseAndStore(ctx: ArchiveContext, imp: ImportDoc): Promise<void> {
  const archive = await ctx.store.archiveOf(imp.siteId);
  // Leftovers of imports that never completed (this one's earlier attempt included).
  await ctx.store.deleteHiddenPosts(imp.siteId, archive?.version ?? 0);
  await ctx.store.dropStagedOfSite(imp.siteId);
  let imported = 0;
  let skipped = 0;
  await ctx.store.updateImport(imp._id, { status: 'running', imported, skipped, updatedAt: ctx.clock.now() });

  const target = { siteId: imp.siteId, siteUrl: imp.siteUrl, importId: imp._id, nowMs: ctx.clock.nowMs() };
  let batch = new Map<string, PostDoc>();
  // One batch is written while the next is prepared (sanitising is CPU, writing waits on the disk).
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await writing;
    if (batch.size === 0) return;
    const posts = [...batch.values()];
    const progress = { imported, skipped };
    batch = new Map();
    writing = (async () => {
      await storeBatch(ctx, imp, posts);
      await ctx.store.updateImport(imp._id, { ...progress, updatedAt: ctx.clock.now() });
    })();
    // A failed write is rethrown by the next flush; until then it must not count as unhandled.
    writing.catch(() => undefined);
  };
  const seen = new Set<string>();
  try {
    let sinceTurn = 0;
    for await (const parsed of itemsOf(ctx, imp)) {
      for (const entry of parsed) {
        // Skipped or repeated items fill no batch, so no write gives the event loop back: count them.
        if (++sinceTurn >= ITEMS_PER_TURN) {
          sinceTurn = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
        const post = 'item' in entry ? toPost(entry.item, target) : { skip: entry.skipped };
        if ('skip' in post) {
          skipped++;
          continue;
        }
        // The same id twice in one file: the later item wins, and it counts once.
        if (!seen.has(post._id)) {
          seen.add(post._id);
          imported++;
        }
        batch.set(post._id, post);
        if (batch.size >= BATCH) await flush();
      }
      // A parse of a large document gives the event loop back between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await flush();
  } finally {
    // Whatever happened, no write of this import is still under way when it is failed or committed.
    await writing.catch(() => undefined);
  }
  await writing;
  await ctx.store.updateImport(imp._id, { imported, skipped, updatedAt: ctx.clock.now() });
}

/** New posts are inserted hidden; posts this import already stored are replaced; visible ones staged. */
async function storeBatch(ctx: ArchiveContext, imp: ImportDoc, posts: PostDoc[]): Promise<void> {
  const existing = await ctx.store.existingPosts(posts.map((p) => p._id));
  const fresh: PostDoc[] = [];
  const own: PostDoc[] = [];
  const visible: PostDoc[] = [];
  for (const post of posts) {
    const from = existing.get(post._id);
    if (from === undefined) fresh.push(post);
    else if (from === imp._id) own.push(post);
    else visible.push({ ...post, visibleFrom: from });
  }
  await ctx.store.insertPosts(fresh);
  await Promise.all(own.map((post) => ctx.store.replacePost(post)));
  await ctx.store.stage(imp._id, visible);
}

async function commit(ctx: ArchiveContext, imp: ImportDoc): Promise<void> {
  const current = await ctx.store.importById(imp._id);
  // Declared abandoned meanwhile (failAbandoned): its site may already hold a newer import.
  if (current?.status === 'failed') return;
  await ctx.store.updateImport(imp._id, { status: 'committing', updatedAt: ctx.clock.now() });
  for (let skip = 0; ; skip += BATCH) {
    const staged = await ctx.store.stagedBatch(imp._id, BATCH, skip);
    await Promise.all(staged.map((s) => ctx.store.replacePost(s.post)));
    if (staged.length < BATCH) break;
  }
  const now = ctx.clock.now();
  await ctx.store.saveArchive({
    _id: imp.siteId,
    version: imp._id,
    etag: `${imp.siteId}-${imp._id}-${randomToken().slice(0, 8)}`,
    title: imp.siteTitle,
    homePageUrl: imp.siteUrl,
    completedAt: now,
  });
  await ctx.store.finishImport(imp._id, { status: 'complete', error: null, updatedAt: now });
  await ctx.store.dropStaged(imp._id);
  await ctx.blobs.delete(blobKey(imp._id));
  // Build this process's read model now rather than on the first read (other replicas build theirs
  // on their first read of the new version).
  const archive = await ctx.store.archiveOf(imp.siteId);
  if (archive) {
    ctx.indexes.indexOf(ctx, archive).catch((err: unknown) => {
      ctx.logger.warn({ err, siteId: imp.siteId }, 'archive read model not built after the import');
    });
  }
}

async function fail(ctx: ArchiveContext, imp: ImportDoc, message: string): Promise<void> {
  const archive = await ctx.store.archiveOf(imp.siteId);
  await ctx.store.finishImport(imp._id, { status: 'failed', error: message, updatedAt: ctx.clock.now() });
  await ctx.store.deleteHiddenPosts(imp.siteId, archive?.version ?? 0);
  await ctx.store.dropStaged(imp._id);
  await ctx.blobs.delete(blobKey(imp._id));
}
