// The documents of the archive service's own collections (store/index.ts has the queries and indexes).

/** One site's archive: exists once an import of the site has completed. */
export interface ArchiveDoc {
  /** The site id. */
  _id: number;
  /** Id of the import that completed last: posts with `visibleFrom` ≤ this are visible. */
  version: number;
  /** The ETag of every read endpoint of the site; new at every completed import. */
  etag: string;
  /** The site's name (feed titles) and home page, as publishing described it at the last import. */
  title: string;
  homePageUrl: string;
  completedAt: Date;
  [key: string]: unknown;
}

/** One imported post. `_id` is `{siteId}:{itemId}`, so re-importing an item replaces it. */
export interface PostDoc {
  _id: string;
  siteId: number;
  /** The item id of the import, as a string (unique within the archive). */
  itemId: string;
  url: string;
  /** `""` when the item has none. */
  title: string;
  /** Sanitised HTML. */
  contentHtml: string;
  contentText: string;
  publishedMs: number;
  modifiedMs?: number;
  tags: string[];
  image?: string;
  /**
   * The folded search terms of title, tags and text (domain/terms.ts), each once, joined by single
   * spaces (a term never contains one): one string is far cheaper to store, copy and load than an
   * array of hundreds, and reads never query it — they split it once per site version.
   */
  terms: string;
  /**
   * Id of the import that created the post: hidden until that import completes (a failed import's
   * new posts are never seen and are deleted when the next import of the site starts).
   */
  visibleFrom: number;
  [key: string]: unknown;
}

/** The new version of a visible post, held until its import completes. */
export interface StagedDoc {
  /** `{importId}:{itemId}` */
  _id: string;
  importId: number;
  siteId: number;
  post: PostDoc;
  [key: string]: unknown;
}

export const IMPORT_KINDS = ['jsonfeed', 'zip', 'wxr'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export type ImportStatus = 'receiving' | 'queued' | 'running' | 'committing' | 'complete' | 'failed';

export interface ImportDoc {
  _id: number;
  siteId: number;
  userId: number;
  kind: ImportKind;
  status: ImportStatus;
  imported: number;
  skipped: number;
  error: string | null;
  /** The site id while the import is receiving, queued or running (unique: one import per site). */
  activeSite?: number;
  /** The site as publishing described it when the import was asked for. */
  siteTitle: string;
  siteUrl: string;
  createdAt: Date;
  updatedAt: Date;
  [key: string]: unknown;
}
