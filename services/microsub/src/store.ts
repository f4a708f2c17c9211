// The microsub service's named queries over its one collection, `channelstates`: per user and channel,
// the read marker, the entries marked read or unread since, and the entries removed. Timelines
// themselves belong to the feeds service and are asked for over the bus; nothing here copies them.
import type { Collection, Store } from '@murmur/platform';

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

export class MicrosubStore {
  private readonly states: Collection<ChannelStateDoc>;

  constructor(readonly store: Store) {
    this.states = store.collection<ChannelStateDoc>('channelstates');
  }

  async createIndexes(): Promise<void> {
    // Documents are found by `_id` only; this one index serves deleting a user's state.
    await this.states.createIndex({ userId: 1 });
  }

  /** The user's state of a channel, created with `marker` the first time it is asked for. */
  async channelState(userId: number, channel: string, marker: Position): Promise<ChannelStateDoc> {
    const _id = `${userId}:${channel}`;
    const found = await this.states.findOne({ _id });
    if (found) return found;
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
    return created!;
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
    return matchedCount === 1;
  }
}
