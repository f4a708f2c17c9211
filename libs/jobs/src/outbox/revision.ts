// Order for consumers of "this is the state of entity X now" events (docs/adr/0009-outbox-and-self-healing-bus.md):
// the bus may deliver an older event after a newer one (a retried event is overtaken, two members race), so a
// consumer keeps a copy only if the event's revision is newer than the one it already applied.
import { createHash } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Doc, type Filter, type Update } from '@murmur/store';

/**
 * A deterministic event id: the same operation on the same revision of the same entity always gets the same id, so
 * a client retry records (and the bus stores) one event, not two. `verb` tells apart events of one revision (e.g.
 * `published` and `deleted` never share one, but a caller may need both names). Keys longer than 64 characters
 * (URLs) are replaced by a hash, so ids stay short enough for a NATS header.
 */
export function eventIdFor(
  service: string,
  entity: string,
  key: string | number,
  revision: number,
  verb?: string,
): string {
  if (!Number.isInteger(revision) || revision < 0) throw new RangeError('revision must be an integer ≥ 0');
  const text = String(key);
  const safe =
    text.length <= 64 && /^[A-Za-z0-9_.:@+-]+$/.test(text)
      ? text
      : `h${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
  return `${service}.${entity}.${safe}.r${revision}${verb ? `.${verb}` : ''}`;
}

export type ApplyOutcome = 'applied' | 'stale';

export interface ApplyIfNewerOptions {
  /** Create the document when it does not exist (default true). The filter must then name a unique key (`_id`). */
  upsert?: boolean;
  /** The field holding the revision. Default `revision`. */
  field?: string;
}

/**
 * Applies `update` to the document matching `filter` only if its stored revision is lower than `revision` (or it
 * has none), and records `revision` in the same atomic write. An event carrying the same or an older revision
 * changes nothing and returns 'stale' — which also makes redeliveries harmless. With upsert, a missing document is
 * created; if a concurrent writer inserted it first (DuplicateKeyError), the write is tried once more under the
 * revision check.
 */
export async function applyIfNewer<T extends Doc>(
  collection: Collection<T>,
  filter: Filter,
  revision: number,
  update: Update,
  options: ApplyIfNewerOptions = {},
): Promise<ApplyOutcome> {
  if (!Number.isFinite(revision)) throw new RangeError('revision must be a number');
  const field = options.field ?? 'revision';
  const upsert = options.upsert ?? true;
  const newer: Filter = { $or: [{ [field]: { $lt: revision } }, { [field]: { $exists: false } }] };
  const guarded: Filter = '$or' in filter ? { $and: [filter, newer] } : { ...filter, ...newer };
  const write: Update = { ...update, $set: { ...update.$set, [field]: revision } };
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await collection.updateOne(guarded, write, { upsert });
      return result.matchedCount > 0 || result.upsertedId !== undefined ? 'applied' : 'stale';
    } catch (err) {
      // The document exists with a revision ≥ ours (so the filter missed it and the upsert collided with it), or
      // another consumer inserted it a moment ago: look once more, now that it exists.
      if (!(err instanceof DuplicateKeyError) || attempt >= 2) {
        if (err instanceof DuplicateKeyError) return 'stale';
        throw err;
      }
    }
  }
}
