// Publishing's own collections and their indexes. Uniqueness that the rules depend on (one default site
// per user, one permalink per site, category names and page slugs per site) is held by unique indexes,
// so concurrent writers cannot break it; the domain retries on DuplicateKeyError.
import { nextId, type Collection, type Store } from '@murmur/platform';
import type { publishing } from '@murmur/contracts';

type Mention = publishing.Mention;

export interface SiteDoc {
  _id: number;
  userId: number;
  /** Owner's username (path of the default site: /sites/{username}/). */
  username: string;
  /** Owner's display name, kept from identity's user events. */
  ownerName: string;
  /** A custom host the site is served on (lower case), or null for the public URL's host. */
  host: string | null;
  /** Unique, sparse: present only when `host` is set. */
  hostKey?: string;
  isDefault: boolean;
  /** Unique, sparse: the owner's id on their default site, absent on others. */
  defaultOf?: number;
  createdAt: Date;
  updatedAt: Date;
  /** Bumped by every change of what site events carry; update events carry it in their id. */
  revision?: number;
  [key: string]: unknown;
}

export type PostStatus = 'draft' | 'published' | 'scheduled';
export type BodyFormat = 'html' | 'text';

export interface PostDoc {
  _id: number;
  userId: number;
  siteId: number;
  title: string;
  /** The body as stored: sanitised HTML, or the plain text as written. */
  body: string;
  bodyFormat: BodyFormat;
  contentHtml: string;
  contentText: string;
  photos: string[];
  mentions: Mention[];
  categories: string[];
  status: PostStatus;
  /** The post's date: when it was (or will be) published; for a draft, its given date or creation time. */
  date: Date;
  /** Whether `date` was given by the client (a draft's own date is kept for its publication). */
  dateGiven: boolean;
  /** `yyyy/mm/dd/slug.html` below the site URL; null until first published or scheduled. */
  path: string | null;
  /** Unique, sparse: `{siteId}/{path}` once a path is assigned. */
  permalinkKey?: string;
  firstPublishedAt: Date | null;
  createdAt: Date;
  modifiedAt: Date;
  /** Bumped by every change; events carry it in their id so redeliveries can be recognised. */
  revision: number;
  /** The revision whose event was published last. */
  announcedRevision?: number;
  /** The revision the scheduler made by publishing the post (its job re-announces only that one). */
  scheduledRevision?: number;
  [key: string]: unknown;
}

export interface PageDoc {
  _id: number;
  userId: number;
  siteId: number;
  title: string;
  body: string;
  bodyFormat: BodyFormat;
  contentHtml: string;
  slug: string;
  /** Unique: `{siteId}/{slug}`. */
  slugKey: string;
  isNavigation: boolean;
  date: Date;
  createdAt: Date;
  modifiedAt: Date;
  [key: string]: unknown;
}

export interface CategoryDoc {
  _id: number;
  siteId: number;
  userId: number;
  name: string;
  /** Unique: `{siteId}/{lower-case name}`. */
  nameKey: string;
  slug: string;
  /** Unique: `{siteId}/{slug}`. */
  slugKey: string;
  createdAt: Date;
  [key: string]: unknown;
}

export interface MediaDoc {
  /** Random, unguessable. */
  _id: string;
  siteId: number;
  userId: number;
  /** Blob key and URL path below /media/: `{siteId}/{yyyy}/{random}-{name}`. */
  key: string;
  name: string;
  contentType: string;
  size: number;
  createdAt: Date;
  [key: string]: unknown;
}

export class PublishingStore {
  readonly sites: Collection<SiteDoc>;
  readonly posts: Collection<PostDoc>;
  readonly pages: Collection<PageDoc>;
  readonly categories: Collection<CategoryDoc>;
  readonly media: Collection<MediaDoc>;

  constructor(readonly raw: Store) {
    this.sites = raw.collection<SiteDoc>('sites');
    this.posts = raw.collection<PostDoc>('posts');
    this.pages = raw.collection<PageDoc>('pages');
    this.categories = raw.collection<CategoryDoc>('categories');
    this.media = raw.collection<MediaDoc>('media');
  }

  async createIndexes(): Promise<void> {
    await Promise.all([
      this.sites.createIndex({ userId: 1 }),
      this.sites.createIndex({ username: 1 }),
      this.sites.createIndex({ defaultOf: 1 }, { unique: true, sparse: true }),
      this.sites.createIndex({ hostKey: 1 }, { unique: true, sparse: true }),
      this.posts.createIndex({ siteId: 1, date: -1 }),
      this.posts.createIndex({ permalinkKey: 1 }, { unique: true, sparse: true }),
      this.pages.createIndex({ siteId: 1, createdAt: -1 }),
      this.pages.createIndex({ slugKey: 1 }, { unique: true }),
      this.categories.createIndex({ nameKey: 1 }, { unique: true }),
      this.categories.createIndex({ slugKey: 1 }, { unique: true }),
      this.media.createIndex({ key: 1 }, { unique: true }),
    ]);
  }

  // --- sites ---

  siteById(id: number): Promise<SiteDoc | null> {
    return this.sites.findOne({ _id: id });
  }

  defaultSiteOf(userId: number): Promise<SiteDoc | null> {
    return this.sites.findOne({ defaultOf: userId });
  }

  defaultSiteOfUsername(username: string): Promise<SiteDoc | null> {
    return this.sites.findOne({ username, isDefault: true });
  }

  siteByHost(host: string): Promise<SiteDoc | null> {
    return this.sites.findOne({ hostKey: host });
  }

  sitesByUsername(username: string): Promise<SiteDoc[]> {
    return this.sites.find({ username }, { sort: { _id: 1 } });
  }

  /** Sets (or with null removes) a site's own host; the site after the change, or null if unknown. */
  setSiteHost(id: number, host: string | null, now: Date): Promise<SiteDoc | null> {
    const set = { host, updatedAt: now };
    return this.sites.findOneAndUpdate(
      { _id: id },
      host === null
        ? { $set: set, $unset: { hostKey: '' }, $inc: { revision: 1 } }
        : { $set: { ...set, hostKey: host }, $inc: { revision: 1 } },
    );
  }

  async renameSiteOwner(userId: number, name: string, now: Date): Promise<void> {
    await this.sites.updateMany({ userId }, { $set: { ownerName: name, updatedAt: now } });
  }

  // --- posts, pages, categories ---

  postById(id: number): Promise<PostDoc | null> {
    return this.posts.findOne({ _id: id });
  }

  /** Any post holding that permalink (published or scheduled): a new one must take another. */
  postByPermalink(siteId: number, path: string): Promise<PostDoc | null> {
    return this.posts.findOne({ permalinkKey: `${siteId}/${path}` });
  }

  /** The public post at a permalink (site pages): drafts and scheduled posts are not found. */
  publishedPostByPermalink(siteId: number, path: string): Promise<PostDoc | null> {
    return this.posts.findOne({ permalinkKey: `${siteId}/${path}`, status: 'published' });
  }

  pageById(id: number): Promise<PageDoc | null> {
    return this.pages.findOne({ _id: id });
  }

  pageBySlug(siteId: number, slug: string): Promise<PageDoc | null> {
    return this.pages.findOne({ slugKey: `${siteId}/${slug}` });
  }

  categoriesOfSite(siteId: number): Promise<CategoryDoc[]> {
    return this.categories.find({ siteId }, { sort: { name: 1 } });
  }

  categoryBySlug(siteId: number, slug: string): Promise<CategoryDoc | null> {
    return this.categories.findOne({ slugKey: `${siteId}/${slug}` });
  }

  /** Post and page ids come from counters and stay within 32 bits (they are sent as `<int>`). */
  async nextPostId(): Promise<number> {
    return nextId(this.raw, 'posts');
  }

  async nextPageId(): Promise<number> {
    return nextId(this.raw, 'pages');
  }

  async nextSiteId(): Promise<number> {
    return nextId(this.raw, 'sites');
  }

  async nextCategoryId(): Promise<number> {
    return nextId(this.raw, 'categories');
  }
}
