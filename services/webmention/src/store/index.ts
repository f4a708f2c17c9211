// Named queries over the webmention service's own collections, and their indexes. Nothing else in the
// service touches a collection, and no other service opens them (they hear about mentions on the bus).
//
//   mentions  one record per (source, target): its verification status and, once verified, the parsed
//             mention. `_id` is a hash of the pair so every write is an upsert on one key; `wmId` is
//             given on the first verification and kept for ever (docs/api/webmention.md).
//   targets   one revision per target (scheme-less), bumped on every visible change: the ETag of
//             GET /webmention without reading a single mention.
//   sites     copies of publishing's sites (which hosts and paths are ours, and whose).
//   posts     copies of publishing's public posts: permalinks we accept as targets, and the links
//             each post had when we last sent webmentions for it.
//   blocks    source hosts refused by the operator (userId null) or by one user for their own site.
//   sends     one record per (our permalink, linked URL) we deliver a webmention for.
import { createHash } from 'node:crypto';
import { nextId, type Collection, type Filter, type Store } from '@murmur/store';
import type { webmention } from '@murmur/contracts';

type MentionAuthor = webmention.MentionAuthor;
type MentionType = webmention.MentionType;

export const MENTION_STATUSES = [
  'queued',
  'verified',
  'retrying',
  'no_link',
  'deleted',
  'source_not_found',
  'blocked',
  'failed',
  'removed_by_owner',
] as const;
export type MentionStatus = (typeof MENTION_STATUSES)[number];

export type MentionDoc = {
  _id: string;
  source: string;
  target: string;
  /** The target without its scheme (`//host/path?query`): http and https twins share it. */
  targetKey: string;
  sourceHost: string;
  targetUserId: number | null;
  status: MentionStatus;
  /** Shown in GET /webmention and the feeds. */
  visible: boolean;
  /** Hidden by the owner of the target: never shown again (docs/api/webmention.md, moderation). */
  removedByOwner?: boolean;
  wmId?: number;
  /** Grows with every change of what is shown; event ids are made of (wmId, rev). */
  rev: number;
  /** The rev at which the mention last became visible: its verified event then says isNew. */
  shownAtRev?: number;
  type?: MentionType;
  url?: string;
  author?: MentionAuthor;
  contentHtml?: string;
  contentText?: string;
  /** The page title of a source without an h-entry. */
  name?: string;
  published?: Date;
  /** Whether the source gave a published date (else `published` is the time received). */
  publishedGiven?: boolean;
  /** First verification (`wm-received`). */
  receivedAt?: Date;
  /** Hash of the parsed fields: re-verifying an unchanged source changes nothing. */
  fingerprint?: string;
  createdAt: Date;
  updatedAt: Date;
  checkedAt?: Date;
  lastError?: string;
};

export type SiteDoc = {
  _id: number;
  userId: number;
  host: string;
  /** Home page URL, ending in `/`. */
  url: string;
  /** The site is served on a host of its own (else under the public URL's /sites/{username}/). */
  ownHost: boolean;
  rev: string;
};

export type PostDoc = {
  _id: number;
  userId: number;
  url: string;
  urlKey: string;
  visible: boolean;
  /** Links of the post when we last sent for it (a later edit also notifies the removed ones). */
  links: string[];
  rev: string;
};

export type BlockDoc = {
  _id: string;
  host: string;
  /** null: the operator's block (every site); else the user whose sites refuse the host. */
  userId: number | null;
  createdAt: Date;
};

export type SendStatus = 'queued' | 'sent' | 'no_endpoint' | 'retrying' | 'failed' | 'refused';

export type SendDoc = {
  _id: string;
  postId: number;
  source: string;
  target: string;
  status: SendStatus;
  endpoint?: string;
  responseStatus?: number;
  lastError?: string;
  updatedAt: Date;
};

type TargetDoc = {
  _id: string;
  rev: number;
};

/** The earliest Date there is: `published >= EARLIEST` holds for every mention. */
const EARLIEST = new Date(-8_640_000_000_000_000);

export function pairId(source: string, target: string): string {
  return createHash('sha256').update(`${source}\n${target}`).digest('base64url').slice(0, 32);
}

export class WebmentionStore {
  readonly mentions: Collection<MentionDoc>;
  private readonly targets: Collection<TargetDoc>;
  private readonly sites: Collection<SiteDoc>;
  private readonly posts: Collection<PostDoc>;
  private readonly blocks: Collection<BlockDoc>;
  private readonly sends: Collection<SendDoc>;

  constructor(private readonly store: Store) {
    this.mentions = store.collection<MentionDoc>('mentions');
    this.targets = store.collection<TargetDoc>('targets');
    this.sites = store.collection<SiteDoc>('sites');
    this.posts = store.collection<PostDoc>('posts');
    this.blocks = store.collection<BlockDoc>('blocks');
    this.sends = store.collection<SendDoc>('sends');
  }

  async createIndexes(): Promise<void> {
    await this.mentions.createIndex({ targetKey: 1, visible: 1, published: 1 });
    await this.mentions.createIndex({ wmId: 1 }, { unique: true, sparse: true });
    await this.mentions.createIndex({ targetUserId: 1, updatedAt: 1 });
    await this.mentions.createIndex({ sourceHost: 1, visible: 1 });
    await this.sites.createIndex({ host: 1 });
    await this.posts.createIndex({ urlKey: 1 });
    await this.blocks.createIndex({ host: 1 });
    await this.sends.createIndex({ postId: 1 });
  }

  // --- mentions -------------------------------------------------------------------------------

  mention(id: string): Promise<MentionDoc | null> {
    return this.mentions.findOne({ _id: id });
  }

  mentionByWmId(wmId: number): Promise<MentionDoc | null> {
    return this.mentions.findOne({ wmId });
  }

  /** Creates the record of a received pair (status `queued`) or refreshes its owner; never its state. */
  async receivedPair(
    doc: Pick<MentionDoc, '_id' | 'source' | 'target' | 'targetKey' | 'sourceHost' | 'targetUserId'>,
    now: Date,
  ): Promise<void> {
    await this.mentions.updateOne(
      { _id: doc._id },
      {
        $set: { targetUserId: doc.targetUserId, updatedAt: now },
        $setOnInsert: {
          source: doc.source,
          target: doc.target,
          targetKey: doc.targetKey,
          sourceHost: doc.sourceHost,
          status: 'queued',
          visible: false,
          rev: 0,
          createdAt: now,
        },
      },
      { upsert: true },
    );
  }

  /** Writes `changes` if the record is still at `rev` (a concurrent run of the same job loses). */
  async updateMention(
    id: string,
    rev: number,
    set: Partial<MentionDoc>,
    unset: string[] = [],
  ): Promise<boolean> {
    const update: Record<string, unknown> = { $set: set };
    if (unset.length > 0) update.$unset = Object.fromEntries(unset.map((k) => [k, '']));
    const res = await this.mentions.updateOne({ _id: id, rev }, update);
    return res.matchedCount === 1;
  }

  /** Sets the status (and error) without touching what is shown. */
  async setMentionStatus(id: string, status: MentionStatus, now: Date, lastError?: string): Promise<void> {
    await this.mentions.updateOne(
      { _id: id },
      lastError === undefined
        ? { $set: { status, checkedAt: now, updatedAt: now }, $unset: { lastError: '' } }
        : { $set: { status, checkedAt: now, updatedAt: now, lastError } },
    );
  }

  nextWmId(): Promise<number> {
    return nextId(this.store, 'wm-id');
  }

  /** Verified mentions of a target and its twin: the newest `limit` by published, or one page. */
  async visibleMentionsOf(
    targetKey: string,
    page: { skip: number; limit: number } | { newest: number },
  ): Promise<MentionDoc[]> {
    // A range over every date on the sort field, the index's third: the embedded store then walks the
    // index in order and stops at the limit instead of sorting every mention of the target.
    const filter: Filter = { targetKey, visible: true, published: { $gte: EARLIEST } };
    if ('newest' in page) {
      const docs = await this.mentions.find(filter, { sort: { published: -1 }, limit: page.newest });
      return docs.reverse();
    }
    return this.mentions.find(filter, { sort: { published: 1 }, skip: page.skip, limit: page.limit });
  }

  /** Shown mentions from a source host (of one user's targets, or of everyone's with null). */
  visibleFromHost(host: string, userId: number | null): Promise<MentionDoc[]> {
    return this.mentions.find(
      userId === null
        ? { sourceHost: host, visible: true }
        : { sourceHost: host, visible: true, targetUserId: userId },
    );
  }

  mentionsOfUser(userId: number, limit: number): Promise<MentionDoc[]> {
    return this.mentions.find({ targetUserId: userId }, { sort: { updatedAt: -1 }, limit });
  }

  async targetRev(targetKey: string): Promise<number> {
    return (await this.targets.findOne({ _id: targetKey }))?.rev ?? 0;
  }

  async bumpTarget(targetKey: string): Promise<void> {
    await this.targets.updateOne({ _id: targetKey }, { $inc: { rev: 1 } }, { upsert: true });
  }

  // --- sites and posts (copies) -----------------------------------------------------------------

  /** Keeps the copy only when `rev` is newer (events may arrive out of order). */
  async applySite(doc: SiteDoc): Promise<void> {
    const existing = await this.sites.findOne({ _id: doc._id });
    if (existing && existing.rev >= doc.rev) return;
    await this.sites.updateOne({ _id: doc._id }, { $set: { ...doc } }, { upsert: true });
  }

  sitesOnHost(host: string): Promise<SiteDoc[]> {
    return this.sites.find({ host });
  }

  post(id: number): Promise<PostDoc | null> {
    return this.posts.findOne({ _id: id });
  }

  postsAt(urlKey: string): Promise<PostDoc[]> {
    return this.posts.find({ urlKey, visible: true });
  }

  /** Stores the copy when newer; returns the copy it replaced (null when new), or false when stale. */
  async applyPost(doc: PostDoc): Promise<PostDoc | null | false> {
    const existing = await this.posts.findOne({ _id: doc._id });
    if (existing && existing.rev >= doc.rev) return false;
    await this.posts.updateOne({ _id: doc._id }, { $set: { ...doc } }, { upsert: true });
    return existing;
  }

  // --- blocks -----------------------------------------------------------------------------------

  async block(host: string, userId: number | null, now: Date): Promise<void> {
    const _id = `${userId ?? '*'} ${host}`;
    await this.blocks.updateOne(
      { _id },
      { $setOnInsert: { host, userId, createdAt: now } },
      { upsert: true },
    );
  }

  async unblock(host: string, userId: number | null): Promise<boolean> {
    return (await this.blocks.deleteOne({ _id: `${userId ?? '*'} ${host}` })).deletedCount === 1;
  }

  /** Whether `host` is refused for a target of `userId` (an operator block refuses it everywhere). */
  async isBlocked(host: string, userId: number | null): Promise<boolean> {
    const blocks = await this.blocks.find({ host });
    return blocks.some((b) => b.userId === null || b.userId === userId);
  }

  blocksOf(userId: number | null): Promise<BlockDoc[]> {
    return this.blocks.find({ userId }, { sort: { host: 1 } });
  }

  // --- sends ------------------------------------------------------------------------------------

  async recordSend(doc: SendDoc): Promise<void> {
    const { _id, ...rest } = doc;
    await this.sends.updateOne({ _id }, { $set: rest }, { upsert: true });
  }

  sendsOf(postId: number): Promise<SendDoc[]> {
    return this.sends.find({ postId }, { sort: { target: 1 } });
  }
}
