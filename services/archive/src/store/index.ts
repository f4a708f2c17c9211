// The archive service's named queries over its own collections, and their indexes: every query the
// service makes is here, and nothing outside this folder touches a collection (store/documents.ts has
// the documents).
import { DuplicateKeyError, nextId, type Collection, type Store } from '@murmur/store';
import type { ArchiveDoc, ImportDoc, PostDoc, StagedDoc } from './documents.js';

export type * from './documents.js';
export { IMPORT_KINDS } from './documents.js';

/** What the search index of a site needs of each post (not its content). */
export type PostKey = Pick<PostDoc, '_id' | 'itemId' | 'publishedMs' | 'terms'>;

export class ArchiveStore {
  private readonly archives: Collection<ArchiveDoc>;
  private readonly posts: Collection<PostDoc>;
  private readonly staged: Collection<StagedDoc>;
  private readonly imports: Collection<ImportDoc>;

  constructor(readonly store: Store) {
    this.archives = store.collection<ArchiveDoc>('archives');
    this.posts = store.collection<PostDoc>('posts');
    this.staged = store.collection<StagedDoc>('staged');
    this.imports = store.collection<ImportDoc>('imports');
  }

  async createIndexes(): Promise<void> {
    await Promise.all([
      // Loading a site's visible posts, and deleting a failed import's hidden ones.
      this.posts.createIndex({ siteId: 1, visibleFrom: 1 }),
      // A site's newest posts, walked in date order (recent.json before the site's read model exists).
      this.posts.createIndex({ siteId: 1, publishedMs: -1 }),
      this.staged.createIndex({ importId: 1 }),
      this.staged.createIndex({ siteId: 1 }),
      // One import per site at a time, whatever the number of replicas.
      this.imports.createIndex({ activeSite: 1 }, { unique: true, sparse: true }),
    ]);
  }

  // ---- archives ---------------------------------------------------------------------------------

  archiveOf(siteId: number): Promise<ArchiveDoc | null> {
    return this.archives.findOne({ _id: siteId });
  }

  async saveArchive(doc: ArchiveDoc): Promise<void> {
    const { _id, ...rest } = doc;
    await this.archives.updateOne({ _id }, { $set: rest }, { upsert: true });
  }

  // ---- posts ------------------------------------------------------------------------------------

  /** The keys of every visible post of a site at `version`. */
  visiblePostKeys(siteId: number, version: number): Promise<PostKey[]> {
    return this.posts.find(
      { siteId, visibleFrom: { $lte: version } },
      { projection: { itemId: 1, publishedMs: 1, terms: 1 } },
    ) as Promise<PostKey[]>;
  }

  /**
   * A site's `limit` newest posts, visible or not (hidden ones belong to an unfinished import), newest
   * first as the read model orders them: by date, then item id (the `_id` is `{siteId}:{itemId}`).
   * Read by walking the `{siteId, publishedMs}` index; it stops at the limit.
   */
  newestPosts(siteId: number, limit: number): Promise<PostDoc[]> {
    return this.posts.find({ siteId }, { sort: { publishedMs: -1, _id: -1 }, limit });
  }

  postsByIds(ids: string[]): Promise<PostDoc[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.posts.find({ _id: { $in: ids } });
  }

  /** Which of `ids` exist, with the import that created each. */
  async existingPosts(ids: string[]): Promise<Map<string, number>> {
    const found = await this.posts.find({ _id: { $in: ids } }, { projection: { visibleFrom: 1 } });
    return new Map(found.map((p) => [p._id, p.visibleFrom]));
  }

  async insertPosts(docs: PostDoc[]): Promise<void> {
    if (docs.length > 0) await this.posts.insertMany(docs);
  }

  async replacePost(doc: PostDoc): Promise<void> {
    const { _id, ...rest } = doc;
    const unset = unsetOf(doc);
    await this.posts.updateOne(
      { _id },
      Object.keys(unset).length > 0 ? { $set: rest, $unset: unset } : { $set: rest },
    );
  }

  /** Posts of the site created by imports that never completed (newer than the visible version). */
  async deleteHiddenPosts(siteId: number, version: number): Promise<number> {
    const { deletedCount } = await this.posts.deleteMany({ siteId, visibleFrom: { $gt: version } });
    return deletedCount;
  }

  // ---- staged updates of visible posts ---------------------------------------------------------

  async stage(importId: number, posts: PostDoc[]): Promise<void> {
    await Promise.all(
      posts.map((post) =>
        this.staged.updateOne(
          { _id: `${importId}:${post.itemId}` },
          { $set: { importId, siteId: post.siteId, post } },
          { upsert: true },
        ),
      ),
    );
  }

  stagedBatch(importId: number, limit: number, skip: number): Promise<StagedDoc[]> {
    return this.staged.find({ importId }, { sort: { _id: 1 }, skip, limit });
  }

  async dropStaged(importId: number): Promise<void> {
    await this.staged.deleteMany({ importId });
  }

  /** Staged changes of every import of the site (at the start of an import: all belong to dead ones). */
  async dropStagedOfSite(siteId: number): Promise<void> {
    await this.staged.deleteMany({ siteId });
  }

  // ---- imports ----------------------------------------------------------------------------------

  /**
   * Records a new import, claiming its site; null while another import of the site is receiving,
   * queued or running.
   */
  async startImport(
    doc: Pick<
      ImportDoc,
      | 'siteId'
      | 'userId'
      | 'kind'
      | 'status'
      | 'imported'
      | 'skipped'
      | 'error'
      | 'siteTitle'
      | 'siteUrl'
      | 'createdAt'
      | 'updatedAt'
    >,
  ): Promise<ImportDoc | null> {
    const _id = await nextId(this.store, 'imports');
    const full: ImportDoc = { ...doc, _id, activeSite: doc.siteId };
    try {
      await this.imports.insertOne(full);
      return full;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
  }

  importById(id: number): Promise<ImportDoc | null> {
    return this.imports.findOne({ _id: id });
  }

  /** `receiving` → `queued`; false when the import is no longer receiving (its request was abandoned). */
  async markQueued(id: number, now: Date): Promise<boolean> {
    const { matchedCount } = await this.imports.updateOne(
      { _id: id, status: 'receiving' },
      { $set: { status: 'queued', updatedAt: now } },
    );
    return matchedCount > 0;
  }

  async updateImport(id: number, set: Partial<ImportDoc>): Promise<void> {
    await this.imports.updateOne({ _id: id }, { $set: set });
  }

  /** Ends an import (complete or failed) and frees its site for the next one. */
  async finishImport(id: number, set: Partial<ImportDoc>): Promise<void> {
    await this.imports.updateOne({ _id: id }, { $set: set, $unset: { activeSite: '' } });
  }

  /**
   * Frees a site held by an import whose process died: an upload still `receiving` since `uploadBefore`,
   * or a job `running` or `committing` without progress since `runBefore` (a lease lost on its last
   * attempt leaves the job dead and the import as it was).
   */
  async failAbandoned(siteId: number, uploadBefore: Date, runBefore: Date, now: Date): Promise<void> {
    await this.imports.updateMany(
      {
        activeSite: siteId,
        $or: [
          { status: 'receiving', updatedAt: { $lt: uploadBefore } },
          { status: { $in: ['running', 'committing'] }, updatedAt: { $lt: runBefore } },
        ],
      },
      {
        $set: {
          status: 'failed',
          error: 'The import was interrupted; import the file again.',
          updatedAt: now,
        },
        $unset: { activeSite: '' },
      },
    );
  }
}

/** Optional members absent from `doc` are removed from the stored post. */
function unsetOf(doc: PostDoc): Record<string, ''> {
  const unset: Record<string, ''> = {};
  for (const key of ['modifiedMs', 'image'] as const) if (doc[key] === undefined) unset[key] = '';
  return unset;
}
