// JetStream layout of the bus (docs/adr/0002-bus.md): one EVENTS stream for `evt.>`, one DEADLETTER stream for
// `dlq.>`, and one durable pull consumer per (group, subject). Every replica creates or updates them at start-up,
// so the layout needs no separate provisioning step and replicas racing each other converge on the same config.
import { createHash } from 'node:crypto';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type ConsumerInfo,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import type { Logger } from '@murmur/core';
import { nanos } from '@nats-io/transport-node';
import { DUPLICATE_WINDOW_MS, EVENT_MAX_AGE_MS, type RetryPolicy } from '@murmur/bus';

export const EVENTS_STREAM = 'EVENTS';
export const DEADLETTER_STREAM = 'DEADLETTER';
/** Dead letters wait for an operator longer than events wait for a consumer. */
const DEADLETTER_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
/**
 * How long an unacknowledged delivery stays with one member. Running handlers report progress (`working()`), so
 * this only bounds how soon a crashed member's event goes to another member.
 */
export const ACK_WAIT_MS = 30_000;

const streams: Array<Partial<StreamConfig> & { name: string }> = [
  {
    name: EVENTS_STREAM,
    subjects: ['evt.>'],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(EVENT_MAX_AGE_MS),
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
  },
  {
    name: DEADLETTER_STREAM,
    subjects: ['dlq.>'],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(DEADLETTER_MAX_AGE_MS),
  },
];

export const isApiError = (err: unknown, code: number) =>
  err instanceof JetStreamApiError && err.code === code;

export interface StreamOptions {
  /** Copies of each stream in a cluster (`BUS_STREAM_REPLICAS`); applied when a stream is created. */
  replicas: number;
  log: Logger;
}

/**
 * Creates the streams that are missing (at connect, and again when a server lost its state) and brings the limits
 * of existing ones up to date. The replica count of an existing stream is left alone: changing it moves data
 * between servers, which is an operator's decision (`nats stream edit`), so a difference is only logged.
 */
export async function ensureStreams(jsm: JetStreamManager, options: StreamOptions): Promise<void> {
  for (const base of streams) {
    const config = { ...base, num_replicas: options.replicas };
    let existing: StreamConfig | undefined;
    try {
      existing = (await jsm.streams.info(config.name)).config;
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
      try {
        await jsm.streams.add(config);
        continue;
      } catch (addError) {
        // Another replica may have created it first; if not, the creation's own error is the one worth reading.
        const info = await jsm.streams.info(config.name).catch(() => undefined);
        if (!info) throw addError;
        existing = info.config;
      }
    }
    const { name, retention: _retention, storage: _storage, ...mutable } = config;
    if (existing.num_replicas !== options.replicas) {
      options.log.warn(
        { stream: name, replicas: existing.num_replicas, wanted: options.replicas },
        'bus stream keeps its replica count; change it with `nats stream edit` if intended',
      );
      mutable.num_replicas = existing.num_replicas;
    }
    await jsm.streams.update(name, mutable);
  }
}

/** Consumer names cannot hold dots, and one group may follow many subjects: group name plus a subject hash. */
export function consumerName(durable: string, subject: string): string {
  return `${durable}-${createHash('sha256').update(subject).digest('hex').slice(0, 12)}`;
}

/**
 * The group's consumer, created when missing. `resumeFrom` is absent only when the group is subscribed for the
 * first time from this process: a brand-new group starts with the events published after it exists (ADR 0002) —
 * unless the stream is younger than `youngStoreMs`. A stream that young holds only what happened since it was
 * created: a fresh installation whose services start one after another, or a server that lost its store, into
 * which outboxes publish again what they had sent (outbox.ts). Nothing tells a group lost with the old store from
 * a new one, and both should see those events, so such a group starts with everything the stream holds.
 * When a consumer that this process was already using has vanished (the server lost its state, or someone deleted
 * it), it is recreated from `resumeFrom` — the stream time of the last event this member settled, or the moment it
 * subscribed — so that nothing published meanwhile is skipped; the price is redelivering a few events.
 */
export async function ensureConsumer(
  jsm: JetStreamManager,
  subject: string,
  policy: RetryPolicy,
  resumeFrom?: Date,
  youngStoreMs = 0,
): Promise<ConsumerInfo> {
  const name = consumerName(policy.durable, subject);
  const tunable = { ack_wait: nanos(ACK_WAIT_MS), max_deliver: policy.maxDeliver };
  try {
    const info = await jsm.consumers.info(EVENTS_STREAM, name);
    const same = info.config.ack_wait === tunable.ack_wait && info.config.max_deliver === tunable.max_deliver;
    return same ? info : await jsm.consumers.update(EVENTS_STREAM, name, tunable);
  } catch (err) {
    if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
  }
  const young =
    !resumeFrom &&
    youngStoreMs > 0 &&
    Date.now() - Date.parse((await jsm.streams.info(EVENTS_STREAM)).created) < youngStoreMs;
  const config: Partial<ConsumerConfig> = {
    durable_name: name,
    filter_subject: subject,
    ack_policy: AckPolicy.Explicit,
    ...(resumeFrom
      ? { deliver_policy: DeliverPolicy.StartTime, opt_start_time: resumeFrom.toISOString() }
      : young
        ? { deliver_policy: DeliverPolicy.All }
        : // A new group starts with events published after it exists; afterwards the consumer keeps its position.
          { deliver_policy: DeliverPolicy.New }),
    ...tunable,
  };
  try {
    return await jsm.consumers.add(EVENTS_STREAM, config);
  } catch (err) {
    // A replica of the same group may have created it a moment ago; any other failure surfaces from info().
    const info = await jsm.consumers.info(EVENTS_STREAM, name).catch(() => undefined);
    if (info) return info;
    throw err;
  }
}
