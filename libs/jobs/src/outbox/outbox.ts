// The transactional outbox (docs/adr/0009-outbox-and-self-healing-bus.md): a service records the events of a state
// change in its own store, next to the state, and a relay publishes them on the bus — once the bus is there. A
// request never fails, and an event is never lost, because NATS is down at the moment the state changed.
import { randomBytes } from 'node:crypto';
import type { Logger } from '@murmur/core';
import { z } from 'zod';
import type { EventDef, EventEnvelope } from '@murmur/contracts';
import type { Bus, Headers } from '@murmur/bus';
import { encodeEvent, normalizeHeaders } from '@murmur/bus';
import { retryDelayMs } from '../jobs/backoff.js';
import { IdlePoll, pollIntervals } from '../jobs/idle-poll.js';
import { DuplicateKeyError, type Collection, type Store } from '@murmur/store';

/**
 * One event in the outbox. `_id` is the event id, so recording the same event twice (a client retrying with the
 * same deterministic id) keeps one document, and the bus drops a second publish within its duplicate window.
 */
export type OutboxDoc = {
  _id: string;
  /** `staged`: the state change may not have happened yet; `ready`: publish it; `sent`: kept to absorb re-records. */
  state: 'staged' | 'ready' | 'sent';
  subject: string;
  type: string;
  producer: string;
  /** The envelope as it will travel (JSON text): what the relay publishes is exactly what was recorded. */
  body: string;
  headers: Headers;
  createdAt: Date;
  /** Breaks ties between events recorded in the same millisecond by this process: creation order. */
  seq: number;
  /** Failed publish attempts so far. */
  attempts: number;
  /** Not published (nor, for staged events, verified) before this time. */
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt?: Date;
  /**
   * The bus's event-store epoch (`Bus.eventStoreEpoch`) when the event was sent. Sent events of an earlier epoch are
   * published again: the store they went into is gone, possibly before every group handled them.
   */
  epoch?: string;
  /** Sent events are deleted after this (TTL index). */
  expiresAt?: Date;
};

/** The relay's leadership: one document in the outbox collection, so replicas publish in one order, not in turns. */
type LockDoc = {
  _id: string;
  state: 'lock';
  holder: string;
  leaseUntil: Date;
};

export interface OutboxOptions {
  store: Store;
  bus: Bus;
  logger: Logger;
  /** Names the log lines. */
  service: string;
  /** Default `outbox`. */
  collection?: string;
  /** How often a relay looks for events recorded by other replicas, and for its leadership. Default 500 ms. */
  pollIntervalMs?: number;
  /**
   * The longest wait between looks while they find nothing to publish (jobs/idle-poll.ts); a publish in
   * this process wakes the relay at once. Default as the job queue's (jobs/types.ts): four polls with the
   * default poll interval on the embedded store, else one.
   */
  idlePollIntervalMs?: number;
  /** Publish retries wait about base·2ⁿ⁻¹ (equal jitter), at most max. Defaults 500 ms and 30 s. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A staged event not committed within this is settled by its verifier. Default 30 s. */
  stagedTimeoutMs?: number;
  /** How long sent events are kept, so that re-recording one is a no-op. Default 1 day. */
  sentRetentionMs?: number;
  /** How long a relay's leadership lasts without renewal. Default 15 s. */
  leaseMs?: number;
  /**
   * How often the relay asks the bus whether it lost its stored events (`Bus.eventStoreEpoch`), besides at start
   * and after a failed publish. Default 2 s.
   */
  epochCheckIntervalMs?: number;
  /** The clock (tests). Default `() => new Date()`. */
  now?: () => Date;
}

export interface OutboxPublishOptions {
  /**
   * The event id. Use a deterministic one (`eventIdFor`) whenever the operation can be retried: a retry then
   * records the same event instead of a second one. Default: a random UUID.
   */
  id?: string;
  headers?: Headers;
}

/** An event recorded before its state change; see `Outbox.stage`. */
export interface StagedEvent<D> {
  readonly envelope: EventEnvelope<D>;
  /** The state change is stored: publish the event. Idempotent. */
  commit(): Promise<void>;
  /**
   * The state change failed. The verifier decides (a retry of the same operation may have stored the state
   * earlier): the event is published if the state exists, deleted otherwise.
   */
  discard(): Promise<void>;
}

/** Whether the state a staged event announces exists. Must be a read, must not throw for a missing entity. */
export type OutboxVerifier<D> = (envelope: EventEnvelope<D>) => Promise<boolean>;

export interface Outbox {
  /**
   * Records an event for a state change that is already stored, and returns at once: the relay publishes it.
   * Rejects only when the store does (or with BusValidationError for invalid data, before storing anything).
   * Recording an id that is already in the outbox returns the recorded envelope and records nothing.
   */
  publish<D>(def: EventDef<D>, data: D, options?: OutboxPublishOptions): Promise<EventEnvelope<D>>;
  /**
   * Records an event BEFORE its state change, for writes that cannot be repeated safely: stage, write the state,
   * then `commit()`. If the process dies in between, the relay asks the verifier registered for `def` after
   * `stagedTimeoutMs` whether the state exists, and publishes or deletes the event. Throws if no verifier is
   * registered.
   */
  stage<D>(def: EventDef<D>, data: D, options?: OutboxPublishOptions): Promise<StagedEvent<D>>;
  /** Registers how to tell whether the state a staged `def` event announces was stored. */
  verify<D>(def: EventDef<D>, verifier: OutboxVerifier<D>): void;
  /** Starts the relay (call with the service's start). Idempotent. */
  start(): Promise<void>;
  /** Stops the relay after the publish in progress; unsent events stay for the next start (or another replica). */
  stop(): Promise<void>;
  /** Publishes what is due now and resolves when the pass is over (tests, graceful shutdown). */
  flush(): Promise<void>;
  /** Events recorded and not yet published (staged ones included). */
  pending(): Promise<number>;
}

const LOCK_ID = '~relay';
/**
 * Creation order within this process, shared by every outbox in it: `createdAt` never goes back (even if the wall
 * clock does) and `seq` orders events of one millisecond. Across processes, events of one millisecond are concurrent.
 */
let lastCreated = 0;
let sequence = 0;
function creationStamp(now: Date): { createdAt: Date; seq: number } {
  lastCreated = Math.max(lastCreated, now.getTime());
  sequence += 1;
  return { createdAt: new Date(lastCreated), seq: sequence };
}
const BATCH = 50;
const anyData = z.unknown();

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createOutbox(options: OutboxOptions): Outbox {
  return new StoreOutbox(options);
}

class StoreOutbox implements Outbox {
  private readonly events: Collection<OutboxDoc>;
  private readonly locks: Collection<LockDoc>;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly verifiers = new Map<string, OutboxVerifier<unknown>>();
  private readonly me = randomBytes(9).toString('base64url');
  private readonly polls: IdlePoll;
  private indexes: Promise<void> | undefined;
  private running = false;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private again = false;
  /** When the relay is allowed to try again after a failed publish (it keeps creation order: nothing skips ahead). */
  private blockedUntil = 0;
  private passFailures = 0;
  /** The bus's event-store epoch as last seen, and when it was asked (0: ask at the next pass). */
  private epoch: string | undefined;
  private epochCheckedAt = 0;

  constructor(private readonly options: OutboxOptions) {
    const name = options.collection ?? 'outbox';
    this.events = options.store.collection<OutboxDoc>(name);
    this.locks = options.store.collection<LockDoc>(name);
    this.log = options.logger.child({ component: 'outbox', service: options.service });
    this.now = options.now ?? (() => new Date());
    const { pollMs, idleMs } = pollIntervals(options, options.store.kind);
    this.polls = new IdlePoll(pollMs, idleMs);
  }

  private ensureIndexes(): Promise<void> {
    this.indexes ??= (async () => {
      await this.events.createIndex({ state: 1, createdAt: 1, seq: 1 });
      await this.events.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    })().catch((err: unknown) => {
      this.indexes = undefined;
      throw err;
    });
    return this.indexes;
  }

  async publish<D>(def: EventDef<D>, data: D, opts: OutboxPublishOptions = {}): Promise<EventEnvelope<D>> {
    const { envelope, existing } = await this.record(def, data, opts, 'ready');
    // A staged copy of the same event (an earlier attempt that died before commit): the state is there now.
    if (existing?.state === 'staged') await this.markReady(envelope.id);
    this.kick();
    return envelope;
  }

  async stage<D>(def: EventDef<D>, data: D, opts: OutboxPublishOptions = {}): Promise<StagedEvent<D>> {
    if (!this.verifiers.has(def.subject)) {
      throw new Error(`outbox.stage(${def.subject}) needs a verifier: call outbox.verify() for it first`);
    }
    const { envelope } = await this.record(def, data, opts, 'staged');
    return {
      envelope,
      commit: async () => {
        await this.markReady(envelope.id);
        this.kick();
      },
      discard: async () => {
        await this.settleStaged(envelope.id);
        this.kick();
      },
    };
  }

  verify<D>(def: EventDef<D>, verifier: OutboxVerifier<D>): void {
    this.verifiers.set(def.subject, verifier as OutboxVerifier<unknown>);
  }

  private async record<D>(
    def: EventDef<D>,
    data: D,
    opts: OutboxPublishOptions,
    state: 'staged' | 'ready',
  ): Promise<{ envelope: EventEnvelope<D>; existing?: OutboxDoc }> {
    const now = this.now();
    // Validated and size-checked here, so that what the relay publishes later cannot be refused for its content.
    const { envelope, body } = encodeEvent(def, data, { id: opts.id, occurredAt: now.toISOString() });
    await this.ensureIndexes();
    const doc: OutboxDoc = {
      _id: envelope.id,
      state,
      subject: def.subject,
      type: def.type,
      producer: def.producer,
      body,
      headers: normalizeHeaders(opts.headers),
      ...creationStamp(now),
      attempts: 0,
      nextAttemptAt: state === 'staged' ? new Date(now.getTime() + this.stagedTimeout) : now,
      lastError: null,
    };
    try {
      await this.events.insertOne(doc);
      return { envelope };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await this.events.findOne({ _id: envelope.id });
      if (!existing) throw err;
      return { envelope: JSON.parse(existing.body) as EventEnvelope<D>, existing };
    }
  }

  private get stagedTimeout(): number {
    return this.options.stagedTimeoutMs ?? 30_000;
  }

  private async markReady(id: string): Promise<void> {
    await this.events.updateOne(
      { _id: id, state: 'staged' },
      { $set: { state: 'ready', nextAttemptAt: this.now() } },
    );
  }

  /** A staged event whose operation did not commit: publish it if its state exists, else forget it. */
  private async settleStaged(id: string): Promise<void> {
    const doc = await this.events.findOne({ _id: id, state: 'staged' });
    if (!doc) return;
    const verifier = this.verifiers.get(doc.subject);
    if (!verifier) {
      // Staged by a replica that knows a verifier this one lacks (e.g. during a rolling update): leave it to them.
      this.log.warn({ eventId: id, subject: doc.subject }, 'outbox: no verifier for a staged event');
      await this.events.updateOne(
        { _id: id, state: 'staged' },
        { $set: { nextAttemptAt: new Date(this.now().getTime() + this.stagedTimeout) } },
      );
      return;
    }
    const exists = await verifier(JSON.parse(doc.body) as EventEnvelope<unknown>);
    if (exists) await this.markReady(id);
    else await this.events.deleteOne({ _id: id, state: 'staged' });
  }

  async start(): Promise<void> {
    if (this.running) return;
    await this.ensureIndexes();
    this.running = true;
    this.stopping = false;
    this.kick();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping = true;
    clearTimeout(this.timer);
    while (this.pass) await this.pass;
    // Hand leadership over at once instead of letting other replicas wait for the lease to lapse.
    await this.locks
      .updateOne({ _id: LOCK_ID, holder: this.me }, { $set: { leaseUntil: new Date(0) } })
      .catch(() => undefined);
    this.stopping = false;
  }

  async flush(): Promise<void> {
    await this.ensureIndexes();
    this.blockedUntil = 0;
    while (this.pass) await this.pass;
    const pass = this.runPass();
    this.pass = pass;
    try {
      await pass;
    } finally {
      this.pass = undefined;
    }
    if (this.again) {
      this.again = false;
      this.kick();
    }
  }

  async pending(): Promise<number> {
    return this.events.countDocuments({ state: { $in: ['staged', 'ready'] } });
  }

  /** Runs a pass now, or right after the one in progress. A kick from this process counts as work. */
  private kick(fromTimer = false): void {
    if (!this.running) return;
    if (!fromTimer) this.polls.busy();
    if (this.pass) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.pass = this.runPass().then((worked) => {
      this.pass = undefined;
      if (!this.running) return;
      if (this.again) {
        this.again = false;
        return this.kick();
      }
      if (worked) this.polls.busy();
      else this.polls.idle();
      // Every poll, even while publishing waits for its backoff: the pass also renews the relay lease.
      this.timer = setTimeout(() => this.kick(true), this.polls.nextMs());
      this.timer.unref();
    });
  }

  /** One pass; false when it found nothing to do (or another replica leads), true otherwise. */
  private async runPass(): Promise<boolean> {
    try {
      if (!(await this.lead())) return false;
      const settled = await this.settleOverdueStaged();
      if (Date.now() < this.blockedUntil) return true;
      await this.checkEpoch();
      const found = await this.publishReady();
      if (this.passFailures > 0) this.log.info({ failures: this.passFailures }, 'outbox relay works again');
      this.passFailures = 0;
      return settled > 0 || found || Date.now() < this.blockedUntil;
    } catch (err) {
      // Usually the store is unreachable: say so once, then every 100 polls, not twice a second.
      if (this.passFailures++ % 100 === 0) this.log.warn({ err }, 'outbox relay pass failed');
      return true;
    }
  }

  /**
   * Asks the bus (at start, every `epochCheckIntervalMs`, and after a failed publish) which epoch of its event store
   * it publishes into. Events sent into an earlier one are due again: the bus lost them with its store (NATS restarted
   * without its storage), perhaps before every durable group handled them. Publishing them again keeps the outbox's
   * promise at the price of delivering again to groups that had handled them — at least once, as everywhere (ADR 0009).
   * Their creation order is kept, so they go out before anything newer.
   */
  private async checkEpoch(): Promise<void> {
    const interval = this.options.epochCheckIntervalMs ?? 2_000;
    if (this.epoch !== undefined && Date.now() - this.epochCheckedAt < interval) return;
    const epoch = await this.options.bus.eventStoreEpoch();
    this.epochCheckedAt = Date.now();
    if (epoch === this.epoch) return;
    const { modifiedCount } = await this.events.updateMany(
      { state: 'sent', epoch: { $exists: true, $ne: epoch } },
      {
        $set: { state: 'ready', attempts: 0, nextAttemptAt: this.now(), lastError: null },
        $unset: { sentAt: '', expiresAt: '' },
      },
    );
    if (modifiedCount > 0) {
      this.log.warn(
        { events: modifiedCount, epoch, previous: this.epoch ?? null },
        'outbox: the bus lost the events it had stored; publishing the ones sent into it again',
      );
    }
    this.epoch = epoch;
  }

  /** Takes or renews the relay lease; false while another replica holds it. */
  private async lead(): Promise<boolean> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + (this.options.leaseMs ?? 15_000));
    try {
      const lock = await this.locks.findOneAndUpdate(
        { _id: LOCK_ID, $or: [{ holder: this.me }, { leaseUntil: { $lt: now } }] },
        { $set: { state: 'lock', holder: this.me, leaseUntil } },
        { upsert: true },
      );
      return lock?.holder === this.me;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false; // held by another replica
      throw err;
    }
  }

  /** Settles the staged events whose time ran out; returns how many there were. */
  private async settleOverdueStaged(): Promise<number> {
    const overdue = await this.events.find(
      { state: 'staged', nextAttemptAt: { $lte: this.now() } },
      { sort: { createdAt: 1 }, limit: BATCH },
    );
    for (const doc of overdue) {
      try {
        await this.settleStaged(doc._id);
      } catch (err) {
        this.log.warn({ err, eventId: doc._id }, 'outbox could not verify a staged event');
      }
    }
    return overdue.length;
  }

  /**
   * Publishes ready events oldest first; the first failure ends the pass, so no event overtakes an older
   * one. Returns whether there was any ready event.
   */
  private async publishReady(): Promise<boolean> {
    for (let found = false; ;) {
      const batch = await this.events.find(
        { state: 'ready' },
        { sort: { createdAt: 1, seq: 1 }, limit: BATCH },
      );
      found ||= batch.length > 0;
      for (const doc of batch) {
        if (this.stopping) return found;
        if (doc.nextAttemptAt.getTime() > this.now().getTime()) {
          this.blockedUntil = Date.now() + (doc.nextAttemptAt.getTime() - this.now().getTime());
          return found;
        }
        if (!(await this.publishOne(doc))) return found;
      }
      if (batch.length < BATCH) return found;
    }
  }

  private async publishOne(doc: OutboxDoc): Promise<boolean> {
    const envelope = JSON.parse(doc.body) as EventEnvelope<unknown>;
    const def: EventDef<unknown> = {
      kind: 'event',
      subject: doc.subject,
      type: doc.type,
      producer: doc.producer,
      data: anyData, // validated when recorded
    };
    try {
      await this.options.bus.publish(def, envelope.data, {
        id: envelope.id,
        occurredAt: envelope.occurredAt,
        headers: doc.headers,
      });
    } catch (err) {
      const attempts = doc.attempts + 1;
      const delay = retryDelayMs(
        attempts,
        this.options.backoffBaseMs ?? 500,
        this.options.backoffMaxMs ?? 30_000,
      );
      this.blockedUntil = Date.now() + delay;
      this.epochCheckedAt = 0; // the bus may have lost its store: ask before the next publish
      const level = attempts === 1 || attempts % 10 === 0 ? 'warn' : 'debug';
      this.log[level](
        { err, eventId: doc._id, subject: doc.subject, attempts, retryInMs: delay },
        'outbox could not publish; will retry',
      );
      await this.events.updateOne(
        { _id: doc._id, state: 'ready' },
        {
          $set: {
            attempts,
            lastError: errorText(err),
            nextAttemptAt: new Date(this.now().getTime() + delay),
          },
        },
      );
      return false;
    }
    const now = this.now();
    await this.events.updateOne(
      { _id: doc._id, state: 'ready' },
      {
        $set: {
          state: 'sent',
          sentAt: now,
          ...(this.epoch === undefined ? {} : { epoch: this.epoch }),
          expiresAt: new Date(now.getTime() + (this.options.sentRetentionMs ?? 24 * 60 * 60_000)),
        },
      },
    );
    if (doc.attempts > 0)
      this.log.info({ eventId: doc._id, attempts: doc.attempts }, 'outbox published after retries');
    return true;
  }
}
