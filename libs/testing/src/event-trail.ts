// Where an event got stuck, for tests that must tell a loss from a delay (the chaos suite): its row in the
// producer's outbox (the embedded store, opened read-only beside the running service), its message in the
// EVENTS stream, the position of the consuming group's durable consumer, and the group's dead letters.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { deadLetterSubject } from '@murmur/contracts';
import { consumerName, DEADLETTER_STREAM, EVENTS_STREAM } from '@murmur/bus-nats';
import { SQLITE_FILE } from '@murmur/store-embedded';

/** An event as recorded or carried: its id and envelope data. */
export interface TrailEnvelope {
  id: string;
  data: unknown;
}

export interface EventTrailQuery {
  /** `file:` store directory of the producing service (`STORE_URL` without `file:`) and its name. */
  storeDir: string;
  producer: string;
  /** The event's subject, e.g. `evt.identity.user.created`. */
  subject: string;
  /** The durable group that should have handled it. */
  durable: string;
  natsUrl: string;
}

export interface EventTrail {
  /** Each key's outbox row (`state`, `attempts`, `lastError`), or `absent`. */
  outbox: Map<string, string>;
  /** Each key's stream sequence and where the group's consumer stands relative to it, or `absent`. */
  stream: Map<string, string>;
  /** The consumer's counters, or why they could not be read. */
  consumer: string;
  /** Keys with a dead letter in the group's DEADLETTER subject, with the letter's error. */
  deadLettered: Map<string, string>;
}

type Doc = {
  _id: string;
  state: string;
  subject: string;
  body: string;
  attempts: number;
  lastError: string | null;
};

/**
 * Follows the events that `keyOf` picks out (it returns a key for an event of interest, undefined for others)
 * from the producer's outbox to the consumer. Read-only everywhere; any part that cannot be read says why.
 */
export async function traceEvents(
  query: EventTrailQuery,
  keys: readonly string[],
  keyOf: (event: TrailEnvelope) => string | undefined,
): Promise<EventTrail> {
  const wanted = new Set(keys);
  const trail: EventTrail = {
    outbox: new Map(keys.map((k) => [k, 'absent'])),
    stream: new Map(keys.map((k) => [k, 'absent'])),
    consumer: '',
    deadLettered: new Map(),
  };
  const match = (text: string): string | undefined => {
    try {
      const key = keyOf(JSON.parse(text) as TrailEnvelope);
      return key !== undefined && wanted.has(key) ? key : undefined;
    } catch {
      return undefined;
    }
  };

  const file = join(query.storeDir, query.producer, SQLITE_FILE);
  try {
    if (!existsSync(file)) throw new Error(`no ${file}`);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const rows = db
        .prepare(`SELECT doc FROM "c:outbox" WHERE json_extract(doc, '$.subject') = ?`)
        .all(query.subject) as Array<{ doc: string }>;
      for (const { doc } of rows) {
        const row = JSON.parse(doc) as Doc;
        const key = match(row.body);
        if (key === undefined) continue;
        trail.outbox.set(
          key,
          `${row.state} (attempts ${row.attempts}${row.lastError ? `, last error: ${row.lastError}` : ''})`,
        );
      }
    } finally {
      db.close();
    }
  } catch (err) {
    for (const k of keys) trail.outbox.set(k, `unreadable: ${(err as Error).message}`);
  }

  const nc = await connect({ servers: query.natsUrl, maxReconnectAttempts: 0 });
  try {
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc);
    let ackFloor = 0;
    let delivered = 0;
    let ackPending = 0;
    try {
      const info = await jsm.consumers.info(EVENTS_STREAM, consumerName(query.durable, query.subject));
      ackFloor = info.ack_floor.stream_seq;
      delivered = info.delivered.stream_seq;
      ackPending = info.num_ack_pending;
      trail.consumer =
        `pending ${info.num_pending}, awaiting ack ${info.num_ack_pending}, redelivered ${info.num_redelivered}, ` +
        `delivered up to #${delivered}, acknowledged up to #${ackFloor}`;
    } catch (err) {
      trail.consumer = `unreadable: ${(err as Error).message}`;
    }
    const scan = async (stream: string, subject: string, each: (text: string, seq: number) => void) => {
      const info = await jsm.streams.info(stream, { subjects_filter: subject }).catch(() => undefined);
      let left = info?.state.subjects?.[subject] ?? 0;
      if (left === 0) return;
      const consumer = await js.consumers.get(stream, {
        filter_subjects: subject, // one subject: also on servers before 2.10
        deliver_policy: DeliverPolicy.All,
      });
      while (left > 0) {
        const batch = await consumer.fetch({ max_messages: Math.min(left, 500), expires: 5_000 });
        let got = 0;
        for await (const m of batch) {
          got++;
          each(m.string(), m.seq);
        }
        if (got === 0) break;
        left -= got;
      }
    };
    await scan(EVENTS_STREAM, query.subject, (text, seq) => {
      const key = match(text);
      if (key === undefined) return;
      // The ack floor of a filtered consumer can trail its deliveries; nothing awaiting an ack settles it too.
      const where =
        seq <= ackFloor || (seq <= delivered && ackPending === 0)
          ? 'delivered to the group and settled (acknowledged, or given up and dead-lettered)'
          : seq <= delivered
            ? 'delivered to the group, awaiting its acknowledgement or redelivery'
            : 'not yet delivered to the group';
      trail.stream.set(key, `#${seq}, ${where}`);
    });
    await scan(DEADLETTER_STREAM, deadLetterSubject(query.durable), (text) => {
      try {
        const letter = JSON.parse(text) as { subject?: string; envelope?: TrailEnvelope; error?: string };
        if (letter.subject !== query.subject || !letter.envelope) return;
        const key = keyOf(letter.envelope);
        if (key !== undefined && wanted.has(key)) trail.deadLettered.set(key, letter.error ?? '');
      } catch {
        /* not a letter */
      }
    });
  } catch (err) {
    for (const k of keys) trail.stream.set(k, `unreadable: ${(err as Error).message}`);
  } finally {
    await nc.close();
  }
  return trail;
}
