// Publishing's own collections and their indexes. Uniqueness that the rules depend on (one default site
// per user, one permalink per site, category names and page slugs per site) is held by unique indexes,
// so concurrent writers cannot break it; the domain retries on DuplicateKeyError. Nothing outside this
// file touches a collection: the domain asks for what it needs by name.
import { applyIfNewer } from '@murmur/jobs';
import { nextId, type Collection, type Store } from '@murmur/store';
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

/**
 * A site owner's public profile as identity announces it (user.created / user.updated): what the
 * sites' h-cards show. `revision` orders the announcements (applyIfNewer): an older one never wins.
 */
export interface UserDoc {
  /** The user's id. */
  _id: number;
  username: string;
  name: string;
  /** Absolute URL of the avatar (identity's generated one when the user has none). */
  photo: string;
  note: string;
  /** Other profiles of the user (rel="me"): absolute http(s) URLs in the user's order. */
  links: string[];
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
  /** The body as stored: sanitised HTML, or the plain text as written (the main part: `description`). */
  body: string;
  bodyFormat: BodyFormat;
  /** The rest (`mt_text_more`) as stored like `body`; `contentHtml` has it after a more marker. */
  more?: string;
  /** The summary (`mt_excerpt`), plain text. */
  summary?: string;
  /** The slug asked for (`wp_slug`, folded), used when the permalink is made; `''`: from the title. */
  slug?: string;
  /** The names that came as tags (`mt_keywords`); `categories` holds them too. */
  tags?: string[];
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
  /** Micropub properties with no field of their own (docs/adr/0022-micropub-onto-the-post-model.md). */
  mf2?: PostMf2;
  [key: string]: unknown;
}

/** A photo as Micropub gives it: its URL (ours once stored) and its alt text, if any. */
export interface Mf2Photo {
  value: string;
  alt?: string;
}

/**
 * What Micropub says of a post beyond title, body, summary, categories and date: the posts it replies
 * to, likes, reposts or bookmarks, its photos, videos and audio (URLs of our media), where it was
 * written (`location`, `checkin`: kept as the client sent them) and its copies elsewhere (`syndication`).
 * The post's HTML shows each with its microformats class (domain/micropub-html.ts).
 */
export interface PostMf2 {
  'in-reply-to'?: string[];
  'like-of'?: string[];
  'repost-of'?: string[];
  'bookmark-of'?: string[];
  photo?: Mf2Photo[];
  video?: string[];
  audio?: string[];
  location?: unknown[];
  checkin?: unknown[];
  syndication?: string[];
}

/**
 * What is left of a deleted post that had been public: that its URL held a post, nothing of the post
 * (its URL then answers 410 Gone, and no later post takes it).
 */
export interface DeletedPostDoc {
  /** The permalink key the post held: `{siteId}/{path}`. */
  _id: string;
  siteId: number;
  postId: number;
  deletedAt: Date;
  /**
   * The whole post, kept only when it was deleted through Micropub, whose `undelete` brings it back
   * (docs/adr/0022-micropub-onto-the-post-model.md); XML-RPC deletions keep nothing of the post.
   */
  post?: PostDoc;
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
  private readonly sites: Collection<SiteDoc>;
  private readonly users: Collection<UserDoc>;
  private readonly posts: Collection<PostDoc>;
  private readonly deletedPosts: Collection<DeletedPostDoc>;
  private readonly pages: Collection<PageDoc>;
  private readonly categories: Collection<CategoryDoc>;
  private readonly media: Collection<MediaDoc>;

  constructor(readonly raw: Store) {
    this.sites = raw.collection<SiteDoc>('sites');
    this.users = raw.collection<UserDoc>('users');
    this.posts = raw.collection<PostDoc>('posts');
    this.deletedPosts = raw.collection<DeletedPostDoc>('deletedPosts');
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
      // Lists read their newest N by walking one of these in date order (then _id) and stop there
      // (docs/platform.md, "Query cost"): the owner's list (every status), the site's public posts, and
      // a category's public posts.
      this.posts.createIndex({ siteId: 1, date: -1 }),
      this.posts.createIndex({ siteId: 1, status: 1, date: -1 }),
      this.posts.createIndex({ siteId: 1, status: 1, categories: 1, date: -1 }),
      this.posts.createIndex({ permalinkKey: 1 }, { unique: true, sparse: true }),
      this.pages.createIndex({ siteId: 1, createdAt: -1 }),
      this.pages.createIndex({ slugKey: 1 }, { unique: true }),
      this.categories.createIndex({ nameKey: 1 }, { unique: true }),
      this.categories.createIndex({ slugKey: 1 }, { unique: true }),
      this.media.createIndex({ key: 1 }, { unique: true }),
      // The Micropub media endpoint's q=last: a user's newest upload.
      this.media.createIndex({ userId: 1, createdAt: -1 }),
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

  /** The user's sites besides the default one, oldest first. */
  otherSitesOf(userId: number): Promise<SiteDoc[]> {
    return this.sites.find({ userId, isDefault: false }, { sort: { _id: 1 } });
  }

  /** Throws DuplicateKeyError when the user has a default site already (or the host is taken). */
  async insertSite(site: SiteDoc): Promise<void> {
    await this.sites.insertOne(site);
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

  // --- site owners' profiles ---

  userById(id: number): Promise<UserDoc | null> {
    return this.users.findOne({ _id: id });
  }

  /** Keeps a user's profile unless the stored one is as new or newer; true when it was applied. */
  async applyUser(doc: UserDoc, revision: number): Promise<boolean> {
    const { _id, revision: _r, ...fields } = doc;
    return (await applyIfNewer(this.users, { _id }, revision, { $set: fields })) === 'applied';
  }

  // --- posts, pages, categories ---

  postById(id: number): Promise<PostDoc | null> {
    return this.posts.findOne({ _id: id });
  }

  /** Any post holding that permalink (published or scheduled): a new one must take another. */
  postByPermalink(siteId: number, path: string): Promise<PostDoc | null> {
    return this.posts.findOne({ permalinkKey: `${siteId}/${path}` });
  }

  /** Throws DuplicateKeyError when the permalink is taken. */
  async insertPost(post: PostDoc): Promise<void> {
    await this.posts.insertOne(post);
  }

  /** Replaces the post's fields; without a `permalinkKey`, removes the stored one. */
  async replacePost(post: PostDoc): Promise<void> {
    const { _id, ...fields } = post;
    const unset = post.permalinkKey === undefined ? { $unset: { permalinkKey: '' } } : {};
    await this.posts.updateOne({ _id }, { $set: fields, ...unset });
  }

  /** Records that the event of `revision` was published, unless the post changed since. */
  async markPostAnnounced(id: number, revision: number): Promise<void> {
    await this.posts.updateOne({ _id: id, revision }, { $set: { announcedRevision: revision } });
  }

  /**
   * Flips a scheduled post at `revision` to published (and to the next revision); the post after the
   * flip, or null when it is no longer scheduled at that revision.
   */
  publishIfScheduled(
    post: Pick<PostDoc, '_id' | 'revision' | 'firstPublishedAt'>,
    now: Date,
  ): Promise<PostDoc | null> {
    return this.posts.findOneAndUpdate(
      { _id: post._id, status: 'scheduled', revision: post.revision },
      {
        $set: {
          status: 'published',
          firstPublishedAt: post.firstPublishedAt ?? now,
          modifiedAt: now,
          scheduledRevision: post.revision + 1,
        },
        $inc: { revision: 1 },
      },
    );
  }

  /**
   * Keeps the URL of a public post about to be deleted (idempotent: a retried deletion writes it again).
   * Written before the post is deleted, so a crash in between leaves the post, which wins over its
   * tombstone, and the next attempt finishes.
   */
  async recordDeletedPost(doc: DeletedPostDoc): Promise<void> {
    const { _id, ...fields } = doc;
    await this.deletedPosts.updateOne({ _id }, { $set: fields }, { upsert: true });
  }

  /** The tombstone of a deleted post at a permalink, if one was public there. */
  deletedPostAt(siteId: number, path: string): Promise<DeletedPostDoc | null> {
    return this.deletedPosts.findOne({ _id: `${siteId}/${path}` });
  }

  /** The tombstone with this key (`{siteId}/{path}`, or `{siteId}/drafts/{postId}` for a draft). */
  deletedPostByKey(key: string): Promise<DeletedPostDoc | null> {
    return this.deletedPosts.findOne({ _id: key });
  }

  /** Removes a tombstone (undelete: the post is back at its URL). */
  async removeDeletedPost(key: string): Promise<void> {
    await this.deletedPosts.deleteOne({ _id: key });
  }

  /** The newest media of a user (the Micropub media endpoint's `q=last`). */
  async lastMediaOf(userId: number): Promise<MediaDoc | null> {
    const [doc] = await this.media.find({ userId }, { sort: { createdAt: -1 }, limit: 1 });
    return doc ?? null;
  }

  /** False when the user has no such post. */
  async deletePostOfUser(id: number, userId: number): Promise<boolean> {
    const { deletedCount } = await this.posts.deleteOne({ _id: id, userId });
    return deletedCount > 0;
  }

  /** One page of the site's posts (drafts and scheduled ones too), newest first. */
  postsOfSite(siteId: number, limit: number, offset: number): Promise<PostDoc[]> {
    return this.posts.find({ siteId }, { sort: { date: -1, _id: -1 }, skip: offset, limit });
  }

  /** The site's newest published posts, of one category when given. */
  latestPublishedPosts(siteId: number, limit: number, category?: string): Promise<PostDoc[]> {
    const filter =
      category === undefined
        ? { siteId, status: 'published' }
        : { siteId, status: 'published', categories: category };
    return this.posts.find(filter, { sort: { date: -1, _id: -1 }, limit });
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

  /** Throws DuplicateKeyError when the slug is taken. */
  async insertPage(page: PageDoc): Promise<void> {
    await this.pages.insertOne(page);
  }

  async updatePage(id: number, set: Partial<PageDoc>): Promise<void> {
    await this.pages.updateOne({ _id: id }, { $set: set });
  }

  /** False when the user has no such page. */
  async deletePageOfUser(id: number, userId: number): Promise<boolean> {
    const { deletedCount } = await this.pages.deleteOne({ _id: id, userId });
    return deletedCount > 0;
  }

  /** One page of the site's pages, newest first. */
  pagesOfSite(siteId: number, limit: number, offset: number): Promise<PageDoc[]> {
    return this.pages.find({ siteId }, { sort: { createdAt: -1, _id: -1 }, skip: offset, limit });
  }

  /** The site's navigation pages, oldest first. */
  navigationPagesOfSite(siteId: number): Promise<PageDoc[]> {
    return this.pages.find({ siteId, isNavigation: true }, { sort: { createdAt: 1 } });
  }

  /** Unsorted (site pages key them by name). */
  allCategoriesOfSite(siteId: number): Promise<CategoryDoc[]> {
    return this.categories.find({ siteId });
  }

  categoriesOfSite(siteId: number): Promise<CategoryDoc[]> {
    return this.categories.find({ siteId }, { sort: { name: 1 } });
  }

  categoryById(id: number): Promise<CategoryDoc | null> {
    return this.categories.findOne({ _id: id });
  }

  categoryBySlug(siteId: number, slug: string): Promise<CategoryDoc | null> {
    return this.categories.findOne({ slugKey: `${siteId}/${slug}` });
  }

  /** `nameKey` is `{siteId}/{lower-case name}`. */
  categoryByNameKey(nameKey: string): Promise<CategoryDoc | null> {
    return this.categories.findOne({ nameKey });
  }

  /** Throws DuplicateKeyError when the name or the slug is taken. */
  async insertCategory(doc: CategoryDoc): Promise<void> {
    await this.categories.insertOne(doc);
  }

  // --- media ---

  async insertMedia(doc: MediaDoc): Promise<void> {
    await this.media.insertOne(doc);
  }

  // --- ids ---

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
