// Per-user reading state: the unread and starred sets and the version every cached view of the user is
// checked against. One document per user, so reading a user's sets is one lookup and a change to
// them is one atomic write; concurrent writers are serialised by the version (compare and set).
//
// The unread set is stored as one string: a user may have tens of thousands, and the embedded store
// copies and checks an array element by element on every write, a string not at all. The string is
// `~` and the ids as little-endian 32-bit words in base64 (encodeIds); documents written before that
// hold comma-separated decimal ids, read as well and rewritten by their next change. Turning 30,000
// numbers into decimal text and back was most of the cost of marking entries read (issue 38). New
// entries of subscribed feeds are appended atomically to `arrived` (no read needed); the next change
// of the sets, or a fold, puts them into the string.
import { endianness } from 'node:os';
import { DuplicateKeyError } from '@murmur/store';
import {
  LISTS,
  type ListName,
  type ReaderStore,
  type StarredRef,
  type UserStateDoc,
} from '../store/index.js';

/** Far above real use (the newest 100 per subscription, 5,000 subscriptions); keeps documents bounded. */
export const MAX_UNREAD_PER_USER = 500_000;

/** What changes in the sets: ids actually changing state only (computed against the current sets). */
export interface SetsDelta {
  markUnread?: number[];
  markRead?: number[];
  star?: StarredRef[];
  unstar?: number[];
}

/** The sets as of a version: from a cached view, or decoded from the document. */
export interface CurrentSets {
  version: number;
  unread: ReadonlySet<number>;
  starred: ReadonlyMap<number, StarredRef>;
}

/** Marks the binary form of an id set (base64 never contains it, decimal lists neither). */
const WORDS = '~';
const BIG_ENDIAN = endianness() === 'BE';

/** The ids as stored: binary when each fits 32 bits (entry ids do), else comma-separated decimal. */
export function encodeIds(ids: ReadonlySet<number> | readonly number[]): string {
  const size = 'size' in ids ? ids.size : ids.length;
  if (size === 0) return '';
  const words = new Uint32Array(size);
  let n = 0;
  let fits = true;
  const put = (id: number): void => {
    if (id >= 0 && id <= 0xffffffff && Number.isInteger(id)) words[n++] = id;
    else fits = false;
  };
  ids.forEach(put);
  if (!fits) return [...ids].join(',');
  return WORDS + wordsToBase64(words);
}

function wordsToBase64(words: Uint32Array): string {
  const bytes = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
  if (BIG_ENDIAN) bytes.swap32();
  return bytes.toString('base64');
}

/** Calls `each` with every id of a stored set, in stored order. */
export function forEachId(text: string, each: (id: number) => void): void {
  if (text === '') return;
  if (text.startsWith(WORDS)) {
    const bytes = Buffer.from(text.slice(1), 'base64');
    if (bytes.length % 4 !== 0) throw new Error('stored id set is not whole 32-bit words');
    if (BIG_ENDIAN) bytes.swap32();
    // Copied into an aligned array (a decoded Buffer may start anywhere in Node's pool).
    const words = new Uint32Array(bytes.length / 4);
    new Uint8Array(words.buffer).set(bytes);
    for (let i = 0; i < words.length; i++) each(words[i]!);
    return;
  }
  for (const part of text.split(',')) each(Number(part));
}

/** The unread ids of a document: the stored set plus what arrived since. */
export function unreadOf(doc: Pick<UserStateDoc, 'unread' | 'arrived'>): Set<number> {
  const unread = new Set<number>();
  forEachId(doc.unread, (id) => unread.add(id));
  for (const id of doc.arrived) unread.add(id);
  return unread;
}

/** The lists a change of the sets touches. */
export function listsOf(delta: SetsDelta): ListName[] {
  const lists: ListName[] = [];
  if (delta.markUnread?.length || delta.markRead?.length) lists.push('unread');
  if (delta.star?.length || delta.unstar?.length) lists.push('starred');
  return lists;
}

/** `$set` fields recording that `lists` changed at `at`. */
function listTimes(lists: readonly ListName[], at: Date): Record<string, Date> {
  return Object.fromEntries(lists.map((list) => [`${list}ChangedAt`, at]));
}

/**
 * When `list` last changed, for its `Last-Modified`: its own time; else the time its tracking began
 * (it has not changed since); else, in a document not written since list times were kept, the last
 * change of anything (never later than the truth, so a client is never told "not modified" wrongly).
 */
export function listChangedAt(
  doc: Partial<UserStateDoc> & Pick<UserStateDoc, 'updatedAt'>,
  list: ListName,
): Date {
  return doc[`${list}ChangedAt`] ?? doc.listsTrackedSince ?? doc.updatedAt;
}

/** Every list's `listChangedAt`. */
export function listTimesOf(
  doc: Partial<UserStateDoc> & Pick<UserStateDoc, 'updatedAt'>,
): Record<ListName, Date> {
  return Object.fromEntries(LISTS.map((list) => [list, listChangedAt(doc, list)])) as Record<ListName, Date>;
}

function isEmpty(delta: SetsDelta): boolean {
  return !delta.markUnread?.length && !delta.markRead?.length && !delta.star?.length && !delta.unstar?.length;
}

export interface Written {
  userId: number;
  version: number;
  updatedAt: Date;
  /** The lists this write changed. */
  lists: ListName[];
  delta: SetsDelta;
}

/** A write of the state: its new version, its time and the lists it changed. */
export interface StateWrite {
  version: number;
  updatedAt: Date;
  lists: ListName[];
}

/** New unread ids pushed, and the fold of `arrived` that followed, if one did (the next version). */
export interface Pushed extends StateWrite {
  folded: StateWrite | null;
}

/** `arrived` is folded into `unread` once this many ids were pushed to it. */
export const FOLD_ARRIVED_AT = 1000;

export class UserStates {
  constructor(
    private readonly store: ReaderStore,
    private readonly now: () => Date,
  ) {}

  async read(userId: number): Promise<UserStateDoc> {
    const doc = await this.store.stateOfUser(userId);
    return doc ?? { _id: userId, version: 0, updatedAt: new Date(0), unread: '', arrived: [], starred: [] };
  }

  /** Version and time of the last change, without the sets. */
  async version(userId: number): Promise<{ version: number; updatedAt: Date }> {
    const doc = await this.store.stateVersionOfUser(userId);
    return doc ? { version: doc.version, updatedAt: doc.updatedAt } : { version: 0, updatedAt: new Date(0) };
  }

  /**
   * Computes a delta from the current sets and writes it if the document did not change meanwhile
   * (else reads again and retries). `known` (a current view's sets) saves the first read. Resolves to
   * the write, or null when the delta was empty (nothing written, version unchanged). `alsoChanged`
   * names lists the caller changed besides the sets (recorded in the same write).
   */
  async change(
    userId: number,
    known: CurrentSets | null,
    makeDelta: (current: CurrentSets) => SetsDelta,
    alsoChanged: readonly ListName[] = [],
  ): Promise<Written | null> {
    for (let attempt = 1; ; attempt++) {
      let current: CurrentSets;
      let exists = true;
      if (attempt === 1 && known !== null && known.version > 0) current = known;
      else {
        const doc = await this.store.stateOfUser(userId);
        exists = doc !== null;
        current = doc
          ? {
              version: doc.version,
              unread: unreadOf(doc),
              starred: new Map(doc.starred.map((r) => [r.entryId, r])),
            }
          : { version: 0, unread: new Set(), starred: new Map() };
      }
      const delta = makeDelta(current);
      if (isEmpty(delta)) return null;
      const updatedAt = this.now();
      const lists = [...new Set([...listsOf(delta), ...alsoChanged])];
      const fields = {
        unread: unreadAfter(current.unread, delta),
        arrived: [],
        arrivedCount: 0,
        starred: starredAfter(current.starred, delta),
        ...listTimes(lists, updatedAt),
      };
      if (!exists) {
        try {
          await this.store.insertState({
            _id: userId,
            version: 1,
            updatedAt,
            listsTrackedSince: updatedAt,
            ...fields,
          });
          return { userId, version: 1, updatedAt, lists, delta };
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
        }
      } else {
        if (await this.store.writeStateAtVersion(userId, current.version, fields, updatedAt)) {
          return { userId, version: current.version + 1, updatedAt, lists, delta };
        }
      }
      if (attempt >= 50) throw new Error(`user ${userId}: reading state kept changing; giving up`);
    }
  }

  /**
   * New entries of a subscribed feed: unread for the user, appended atomically (no read needed).
   * `alsoChanged` names other lists changed with them (the feed's title shown in subscriptions).
   * Resolves to the write (UserViews.afterArrival applies it to a cached view).
   */
  async pushUnread(userId: number, ids: number[], alsoChanged: readonly ListName[] = []): Promise<Pushed> {
    const updatedAt = this.now();
    const lists: ListName[] = ['unread', ...alsoChanged];
    const doc = await this.store.pushArrived(
      userId,
      ids,
      MAX_UNREAD_PER_USER,
      listTimes(lists, updatedAt),
      updatedAt,
    );
    const folded = (doc?.arrivedCount ?? 0) >= FOLD_ARRIVED_AT ? await this.foldArrived(userId) : null;
    return { version: doc?.version ?? 1, updatedAt, lists, folded };
  }

  /**
   * Folds `arrived` into the `unread` string: the same sets, a new version (at the same `updatedAt`,
   * so no list's Last-Modified moves). Every push rewrites the whole document, and the embedded store
   * decodes, copies and compares an array element by element: an `arrived` of tens of thousands made
   * each poll cost as much as the user's whole unread set (issue 38). Resolves to the write, or null
   * when someone else changed the state meanwhile (their change folded it).
   */
  async foldArrived(userId: number): Promise<StateWrite | null> {
    const doc = await this.store.stateOfUser(userId);
    if (!doc || doc.arrived.length === 0) return null;
    const fields = { unread: encodeIds(unreadOf(doc)), arrived: [], arrivedCount: 0, starred: doc.starred };
    if (!(await this.store.writeStateAtVersion(userId, doc.version, fields, doc.updatedAt))) return null;
    return { version: doc.version + 1, updatedAt: doc.updatedAt, lists: [] };
  }

  /**
   * Records that something the user's views show changed: the `lists` named (subscriptions,
   * taggings), or only entries (no list). Call after writing that change. Resolves to the write.
   */
  async touch(userId: number, lists: readonly ListName[] = []): Promise<StateWrite> {
    const updatedAt = this.now();
    const version = await this.store.touchState(userId, listTimes(lists, updatedAt), updatedAt);
    return { version: version ?? 1, updatedAt, lists: [...lists] };
  }
}

/**
 * The encoded unread set after `delta`, in one pass and without copying the set (a delta lists only
 * ids that change state: `markRead` ones are unread now, `markUnread` ones are not).
 */
function unreadAfter(unread: ReadonlySet<number>, delta: SetsDelta): string {
  const read = new Set(delta.markRead ?? []);
  const ids: number[] = [];
  unread.forEach((id) => {
    if (!read.has(id)) ids.push(id);
  });
  for (const id of delta.markUnread ?? []) ids.push(id);
  return encodeIds(ids);
}

function starredAfter(starred: ReadonlyMap<number, StarredRef>, delta: SetsDelta): StarredRef[] {
  const unstar = new Set(delta.unstar ?? []);
  const refs = [...starred.values()].filter((ref) => !unstar.has(ref.entryId));
  return refs.concat(delta.star ?? []);
}
