// The microsub service's named queries over its collections: `channellists` (per user, their channels
// in order with their names, once the user changed them), `channelstates` (per user and channel,
// the read marker, the entries marked read or unread since, and the entries removed), and the user
// directory `users`/`sites` that search and preview read (copies fed by identity's and publishing's
// events). Timelines belong to the feeds service and are asked for over the bus; nothing here copies them.
import { applyIfNewer } from '@murmur/jobs';
import { DuplicateKeyError, type Collection, type Store } from '@murmur/store';

/** A timeline position: newest first is `ms` descending, then `id` descending (docs/api/microsub.md). */
export interface Position {
  ms: number;
  id: number;
}

export type ChannelStateDoc = {
  /** `<userId>:<channel uid>`. */
  _id: string;
  userId: number;
  channel: string;
  /** Items at or older than this position are read unless marked unread. */
  markerMs: number;
  markerId: number;
  /** `_id`s marked read (only those newer than the marker matter). */
  read: string[];
  /** Items marked unread, with their positions (only those at or older than the marker matter). */
  unread: { id: string; ms: number }[];
  /** `_id`s hidden from this channel. */
  removed: string[];
  /** Grows with every write: writes are compare-and-set on it. */
  rev: number;
};

export type ChannelState = Omit<ChannelStateDoc, '_id' | 'rev'>;

/** A channel as the user's list holds it. */
export interface ChannelEntry {
  uid: string;
  name: string;
}

/** A user's channels in their order (written the first time the user changes them). */
export type ChannelListDoc = {
  /** The user id. */
  _id: number;
  channels: ChannelEntry[];
  /** Grows with every write: writes are compare-and-set on it. */
  rev: number;
};

/** A user as search shows them (from evt.identity.user.*). */
export type DirectoryUserDoc = {
  _id: number;
  username: string;
  usernameKey: string;
  name: string;
  avatar: string;
  rev: number;
};

/** A user's site (from evt.publishing.site.*): its host is searched, its URL names the user. */
export type DirectorySiteDoc = {
  _id: number;
  userId: number;
  host: string;
  url: string;
  isDefault: boolean;
  rev: number;
};

/**
 * Channel states this process last read or wrote, kept as the first guess of a compare-and-set write
 * (so a mark costs one store round trip instead of a read and a write). Never answers a read: a
 * guess another replica made stale fails its compare-and-set on `rev` and the write re-reads.
 * Bounded in entries and in the size of each state kept.
 */
const GUESSES = 1000;
const GUESS_MAX_IDS = 2000;
/** `<userId>:<channel>` of states this process knows exist (so a request need not read them to know). */
const KNOWN_STATES = 20_000;

export class MicrosubStore {
  private readonly lists: Collection<ChannelListDoc>;
  private readonly states: Collection<ChannelStateDoc>;
  private readonly guesses = new Map<string, ChannelStateDoc>();
  private readonly known = new Set<string>();
  private readonly users: Collection<DirectoryUserDoc>;
  private readonly sites: Collection<DirectorySiteDoc>;

  constructor(readonly store: Store) {
    this.lists = store.collection<ChannelListDoc>('channellists');
    this.states = store.collection<ChannelStateDoc>('channelstates');
    this.users = store.collection<DirectoryUserDoc>('users');
    this.sites = store.collection<DirectorySiteDoc>('sites');
  }

  async createIndexes(): Promise<void> {
    await Promise.all([
      // Channel states are found by `_id`; this index serves deleting a user's state.
      this.states.createIndex({ userId: 1 }),
      this.users.createIndex({ usernameKey: 1 }),
      this.sites.createIndex({ userId: 1 }),
      this.sites.createIndex({ url: 1 }),
      this.sites.createIndex({ host: 1 }),
    ]);
  }

  // ---- the user directory (copies, revision-checked) ----------------------------------------------

  async applyUser(doc: Omit<DirectoryUserDoc, 'rev'>, rev: number): Promise<void> {
    const { _id, ...fields } = doc;
    await applyIfNewer(this.users, { _id }, rev, { $set: fields }, { upsert: true, field: 'rev' });
  }

  async applySite(doc: Omit<DirectorySiteDoc, 'rev'>, rev: number): Promise<void> {
    const { _id, ...fields } = doc;
    await applyIfNewer(this.sites, { _id }, rev, { $set: fields }, { upsert: true, field: 'rev' });
  }

  userById(id: number): Promise<DirectoryUserDoc | null> {
    return this.users.findOne({ _id: id });
  }

  userByUsername(username: string): Promise<DirectoryUserDoc | null> {
    return this.users.findOne({ usernameKey: username.toLowerCase() });
  }

  usersByIds(ids: number[]): Promise<DirectoryUserDoc[]> {
    return this.users.find({ _id: { $in: ids } });
  }

  /** Every user (search matches substrings, which no index of the store serves). */
  allUsers(): Promise<DirectoryUserDoc[]> {
    return this.users.find({});
  }

  allSites(): Promise<DirectorySiteDoc[]> {
    return this.sites.find({});
  }

  sitesOf(userIds: number[]): Promise<DirectorySiteDoc[]> {
    return this.sites.find({ userId: { $in: userIds } });
  }

  siteByUrl(url: string): Promise<DirectorySiteDoc | null> {
    return this.sites.findOne({ url });
  }

  siteByHost(host: string): Promise<DirectorySiteDoc | null> {
    return this.sites.findOne({ host });
  }

  // ---- channel lists (found by `_id`, the user id) -------------------------------------------------

  channelList(userId: number): Promise<ChannelListDoc | null> {
    return this.lists.findOne({ _id: userId });
  }

  /**
   * Writes the user's channels over the list read at revision `rev` (null: none was stored); false
   * when another write came first.
   */
  async replaceChannelList(userId: number, rev: number | null, channels: ChannelEntry[]): Promise<boolean> {
    if (rev === null) {
      try {
        await this.lists.insertOne({ _id: userId, channels, rev: 1 });
        return true;
      } catch (err) {
        if (err instanceof DuplicateKeyError) return false;
        throw err;
      }
    }
    const { matchedCount } = await this.lists.updateOne(
      { _id: userId, rev },
      { $set: { channels, rev: rev + 1 } },
    );
    return matchedCount === 1;
  }

  // ---- channel states ------------------------------------------------------------------------------

  /** Forgets the user's state of a channel (the channel was deleted). */
  async deleteChannelState(userId: number, channel: string): Promise<void> {
    const _id = `${userId}:${channel}`;
    this.guesses.delete(_id);
    this.known.delete(_id);
    await this.states.deleteOne({ _id });
  }

  /** The user's state of a channel, created with `marker` the first time it is asked for. */
  async channelState(userId: number, channel: string, marker: Position): Promise<ChannelStateDoc> {
    const _id = `${userId}:${channel}`;
    const found = await this.states.findOne({ _id });
    if (found) return this.remember(found);
    const created = await this.states.findOneAndUpdate(
      { _id },
      {
        $setOnInsert: {
          userId,
          channel,
          markerMs: marker.ms,
          markerId: marker.id,
          read: [],
          unread: [],
          removed: [],
          rev: 0,
        },
      },
      { upsert: true, returnDocument: 'after' },
    );
    return this.remember(created!);
  }

  /** The state of `<userId>:<channel>` as this process last read or wrote it, if it still remembers. */
  lastSeenChannelState(userId: number, channel: string): ChannelStateDoc | undefined {
    return this.guesses.get(`${userId}:${channel}`);
  }

  /** Whether this process has seen the state of `<userId>:<channel>` (it exists in the store). */
  knowsChannelState(userId: number, channel: string): boolean {
    return this.known.has(`${userId}:${channel}`);
  }

  private remember(doc: ChannelStateDoc): ChannelStateDoc {
    if (!this.known.has(doc._id)) {
      this.known.add(doc._id);
      if (this.known.size > KNOWN_STATES) this.known.delete(this.known.values().next().value!);
    }
    this.guesses.delete(doc._id);
    if (doc.read.length + doc.unread.length + doc.removed.length <= GUESS_MAX_IDS) {
      this.guesses.set(doc._id, doc);
      if (this.guesses.size > GUESSES) this.guesses.delete(this.guesses.keys().next().value!);
    }
    return doc;
  }

  /** Writes `next` over the state read at revision `rev`; false when another write came first. */
  async replaceChannelState(current: ChannelStateDoc, next: ChannelState): Promise<boolean> {
    const { matchedCount } = await this.states.updateOne(
      { _id: current._id, rev: current.rev },
      {
        $set: {
          markerMs: next.markerMs,
          markerId: next.markerId,
          read: next.read,
          unread: next.unread,
          removed: next.removed,
          rev: current.rev + 1,
        },
      },
    );
    if (matchedCount === 1) this.remember({ ...current, ...next, rev: current.rev + 1 });
    else this.guesses.delete(current._id);
    return matchedCount === 1;
  }
}
