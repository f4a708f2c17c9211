// The bus port (docs/adr/0002-bus.md), implemented in memory and over NATS (core request/reply + JetStream).
// The bus contract suite (libs/bus/test/) runs against both and is the definition of this port.
import type { Logger } from '@murmur/core';
import type { EventDef, EventEnvelope, RequestDef } from '@murmur/contracts';

export type Headers = Record<string, string>;
/** Headers of bus messages (`x-request-id` travels in them). */
export type BusHeaders = Headers;

/** Who is connecting: `service` names the NATS connection and tags the bus's log lines. */
export interface BusClientOptions {
  service: string;
  logger: Logger;
  /** NATS: copies of each stream when this client creates it (`BUS_STREAM_REPLICAS`, default 1). */
  streamReplicas?: number;
  /** NATS user and password (connectBus takes them from BUS_URL's user info). Never logged. */
  auth?: { user: string; pass: string };
  /**
   * NATS: a group subscribed for the first time starts with new events (ADR 0002) — unless the event store
   * is younger than this, which means it holds only what happened since it was created or since NATS lost
   * its store (outboxes publish again into it then): such a group starts with everything the store holds.
   * Default 10 minutes; 0 turns it off.
   */
  youngStoreMs?: number;
}

/** What `health()` finds: `ok` unless the bus cannot be reached or one of this client's durable groups is broken. */
export interface BusHealth {
  ok: boolean;
  /** One sentence per problem, for `/readyz` and the logs. */
  problems: string[];
}

export interface MessageContext {
  /** Headers the sender attached; `x-request-id` is always present (generated when the sender had none). */
  headers: Headers;
}

export interface EventContext extends MessageContext {
  /** 1 on first delivery, then 2, 3, … on redeliveries. */
  deliveryCount: number;
}

export interface RequestOptions {
  /** Default 5000. */
  timeoutMs?: number;
  headers?: Headers;
}

export interface PublishOptions {
  headers?: Headers;
  /** Event id; a random UUID when absent. Consumers use it to stay idempotent. */
  id?: string;
  /** The envelope's `occurredAt` (ISO 8601); now when absent. The outbox keeps the time the event was recorded. */
  occurredAt?: string;
}

export interface SubscribeOptions {
  /**
   * Durable group name (e.g. `reader-user-created`). Every group receives each event at least once;
   * replicas sharing a name share the work. Events published while no member is connected are kept.
   */
  durable: string;
  /** Deliveries before the event is dead-lettered. Default 5. */
  maxDeliver?: number;
  /** Redelivery delay after a failed attempt n is backoffMs[n-1] (last value repeats). Default [1000, 5000, 30000]. */
  backoffMs?: number[];
}

/** A dead-lettered event, published on `deadLetterSubject(durable)` as a plain (non-durable) message. */
export interface DeadLetter {
  durable: string;
  subject: string;
  envelope: EventEnvelope<unknown>;
  deliveries: number;
  error: string;
}

export interface Subscription {
  /** Stop receiving (a durable group keeps its position for later). */
  unsubscribe(): Promise<void>;
}

export type RequestHandler<Req, Res> = (payload: Req, ctx: MessageContext) => Promise<Res>;
export type EventHandler<D> = (event: EventEnvelope<D>, ctx: EventContext) => Promise<void>;

export interface Bus {
  readonly kind: 'memory' | 'nats';
  /**
   * Ask the owning service. The payload is validated before sending (invalid → BusValidationError, nothing sent),
   * the reply validated on receipt. A handler's AppError comes back as an AppError with the same status/code/message.
   * Rejects with BusTimeoutError or BusNoResponderError.
   */
  request<Req, Res>(def: RequestDef<Req, Res>, payload: Req, options?: RequestOptions): Promise<Res>;
  /**
   * Answer requests for `def` in the queue group `def.owner` (one member answers each request). Invalid request
   * payloads are answered with a 400 AppError without calling the handler; a response that fails its schema is
   * answered with a 500.
   */
  handle<Req, Res>(def: RequestDef<Req, Res>, handler: RequestHandler<Req, Res>): Promise<Subscription>;
  /** Publish an event durably (validated first). Resolves once the bus has stored it. */
  publish<D>(def: EventDef<D>, data: D, options?: PublishOptions): Promise<EventEnvelope<D>>;
  /**
   * At-least-once delivery to the durable group; acknowledged only after the handler resolves. A rejected handler
   * (or an invalid payload) is retried with backoff and dead-lettered after `maxDeliver` attempts.
   */
  subscribe<D>(def: EventDef<D>, options: SubscribeOptions, handler: EventHandler<D>): Promise<Subscription>;
  /**
   * Non-durable fan-out: every live listener (in every process) receives each event published after it started,
   * at most once, with no retries. For cache invalidation (e.g. the auth cache on `evt.identity.token.revoked`).
   */
  listen<D>(def: EventDef<D>, handler: EventHandler<D>): Promise<Subscription>;
  /**
   * Which lifetime of the broker's stored events this client publishes into now: it changes only when the events
   * the broker had stored are gone (NATS: the EVENTS stream was created anew — a server restarted without its
   * storage, or the stream deleted). An event published before a change and not yet handled by every group is lost
   * with the old store, so the outbox publishes again what it sent into an earlier one. Rejects when the broker
   * cannot be asked now.
   */
  eventStoreEpoch(): Promise<string>;
  /** Plain, non-durable listener for dead letters of a group (operators and tests). */
  onDeadLetter(durable: string, handler: (letter: DeadLetter) => void): Promise<Subscription>;
  /**
   * Whether the bus answers and every durable group this client subscribed is in place (NATS: its consumer exists;
   * a missing one is being recreated meanwhile). Never rejects.
   */
  health(): Promise<BusHealth>;
  /** Resolves when `health()` is ok, rejects with its problems otherwise (used by `/readyz`). */
  ping(): Promise<void>;
  /** Drain: stop taking new messages, let running handlers finish, close. */
  close(): Promise<void>;
}

export class BusTimeoutError extends Error {
  constructor(
    readonly subject: string,
    readonly timeoutMs: number,
  ) {
    super(`no reply on ${subject} within ${timeoutMs} ms`);
    this.name = 'BusTimeoutError';
  }
}

export class BusNoResponderError extends Error {
  constructor(readonly subject: string) {
    super(`no service answers ${subject}`);
    this.name = 'BusNoResponderError';
  }
}

export class BusValidationError extends Error {
  constructor(
    readonly subject: string,
    readonly issues: string,
  ) {
    super(`invalid payload for ${subject}: ${issues}`);
    this.name = 'BusValidationError';
  }
}
