// The bus port over NATS (`BUS_URL=nats://…`): core request/reply in queue groups, JetStream for durable events,
// plain core subscriptions for listen() and dead-letter listeners. See docs/adr/0002-bus.md.
import type { Logger } from '@murmur/core';
import {
  jetstream,
  jetstreamManager,
  type ConsumerInfo,
  type ConsumerMessages,
  type ConsumerNotification,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  JetStreamApiCodes,
} from '@nats-io/jetstream';
import {
  connect,
  headers as natsHeaders,
  RequestError,
  TimeoutError,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
} from '@nats-io/transport-node';
import { deadLetterSubject, type EventDef, type EventEnvelope, type RequestDef } from '@murmur/contracts';
import {
  retryPolicy,
  settle,
  type RetryPolicy,
  InFlight,
  SubscriptionSet,
  BusNoResponderError,
  BusTimeoutError,
  type Bus,
  type BusClientOptions,
  type BusHealth,
  type DeadLetter,
  type EventHandler,
  type Headers,
  type PublishOptions,
  type RequestHandler,
  type RequestOptions,
  type SubscribeOptions,
  type Subscription,
  answerRequest,
  decodeDeadLetter,
  DEFAULT_TIMEOUT_MS,
  deliverEvent,
  deliverToListener,
  encodeEvent,
  encodeRequest,
  normalizeHeaders,
  readReply,
} from '@murmur/bus';
import {
  ACK_WAIT_MS,
  consumerName,
  ensureConsumer,
  ensureStreams,
  EVENTS_STREAM,
  isApiError,
  type StreamOptions,
} from './nats-streams.js';

/** `/readyz` must answer even while the client is reconnecting, when a flush would wait for the connection. */
const PING_TIMEOUT_MS = 2000;
/** Pull requests expire (and idle heartbeats arrive, at half this) this often: how soon a silent server is noticed. */
const PULL_EXPIRES_MS = 10_000;
/** Waits between attempts to recreate a vanished consumer: 0.25 s doubling up to 5 s. */
const RECREATE_BACKOFF_MS = [250, 500, 1000, 2000, 5000];

/** Notifications from a running pull that mean its consumer (or the whole stream) is gone and must be recreated. */
function lostConsumer(s: ConsumerNotification): string | undefined {
  if (s.type === 'consumer_not_found') return `consumer ${s.name} not found`;
  if (s.type === 'stream_not_found') return `stream ${s.name} not found`;
  if (s.type === 'consumer_deleted') return `consumer deleted (${s.description})`;
  return undefined;
}

/** One durable group this client is a member of, and what its supervisor knows about it. */
interface Membership {
  subject: string;
  policy: RetryPolicy;
  /** The consumer's name on EVENTS. */
  name: string;
  /** Why the group is not consuming right now; undefined while it is. */
  problem: string | undefined;
  /** When the member subscribed, then the stream time of the last event it settled. */
  settledUpTo: Date;
  /** Events this member failed and left for redelivery (stream sequence → stream time), until settled. */
  retrying: Map<number, Date>;
  messages: ConsumerMessages | undefined;
  stopped: boolean;
  /** Cuts a recreate backoff short (unsubscribe, or a health check that found the consumer again). */
  wake: () => void;
}

function timeoutAfter(ms: number, what: string): { promise: Promise<never>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  const timeout = timeoutAfter(ms, what);
  try {
    return await Promise.race([work, timeout.promise]);
  } finally {
    timeout.cancel();
  }
}

function toNatsHeaders(headers: Headers): MsgHdrs {
  const h = natsHeaders();
  for (const [name, value] of Object.entries(headers)) h.set(name, value);
  return h;
}

function fromNatsHeaders(h: MsgHdrs | undefined): Headers {
  return normalizeHeaders(
    h ? [...h].map(([name, values]): [string, string] => [name, values.join(', ')]) : [],
  );
}

/** BusClientOptions.youngStoreMs: longer than a deployment's start, shorter than anyone adds a service after it. */
const YOUNG_STORE_MS = 10 * 60_000;

export class NatsBus implements Bus {
  readonly kind = 'nats';
  private readonly log: Logger;
  private readonly js: JetStreamClient;
  private readonly subscriptions = new SubscriptionSet();
  private readonly memberships = new Set<Membership>();
  private readonly streamOptions: StreamOptions;
  private readonly youngStoreMs: number;
  private closing: Promise<void> | undefined;

  /** Connects and makes sure the EVENTS and DEADLETTER streams exist with the current limits. */
  static async connect(servers: string[], options: BusClientOptions): Promise<NatsBus> {
    // Reconnect forever: a service outlives a NATS restart; /readyz reports the gap meanwhile.
    const nc = await connect({ servers, name: options.service, maxReconnectAttempts: -1, ...options.auth });
    try {
      const jsm = await jetstreamManager(nc);
      const bus = new NatsBus(nc, jsm, options);
      await ensureStreams(jsm, bus.streamOptions);
      return bus;
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    options: BusClientOptions,
  ) {
    this.log = options.logger.child({ component: 'bus', bus: 'nats', service: options.service });
    this.js = jetstream(nc);
    this.streamOptions = { replicas: options.streamReplicas ?? 1, log: this.log };
    this.youngStoreMs = options.youngStoreMs ?? YOUNG_STORE_MS;
    void this.logStatus();
  }

  private async logStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect' || status.type === 'error') {
        this.log.warn({ status }, `nats ${status.type}`);
      }
    }
  }

  async request<Req, Res>(
    def: RequestDef<Req, Res>,
    payload: Req,
    options: RequestOptions = {},
  ): Promise<Res> {
    this.assertOpen();
    const body = encodeRequest(def, payload);
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let reply: Msg;
    try {
      reply = await this.nc.request(def.subject, body, {
        timeout,
        headers: toNatsHeaders(normalizeHeaders(options.headers)),
      });
    } catch (err) {
      if (err instanceof TimeoutError) throw new BusTimeoutError(def.subject, timeout);
      if (err instanceof RequestError && err.isNoResponders()) throw new BusNoResponderError(def.subject);
      throw err;
    }
    return readReply(def, reply.string());
  }

  async handle<Req, Res>(
    def: RequestDef<Req, Res>,
    handler: RequestHandler<Req, Res>,
  ): Promise<Subscription> {
    this.assertOpen();
    const inflight = new InFlight();
    const sub = this.nc.subscribe(def.subject, {
      queue: def.owner,
      callback: (err, msg) => {
        if (err) return this.log.error({ err, subject: def.subject }, 'bus request subscription failed');
        void inflight.track(this.answer(def, handler, msg));
      },
    });
    await this.nc.flush(); // the server knows the subscription before handle() resolves: no false "no responders"
    return this.subscriptions.add(async () => {
      if (!this.nc.isClosed()) await sub.drain(); // requests already routed here are still answered
      await inflight.idle();
    });
  }

  private async answer<Req, Res>(
    def: RequestDef<Req, Res>,
    handler: RequestHandler<Req, Res>,
    msg: Msg,
  ): Promise<void> {
    const reply = await answerRequest(
      def,
      msg.string(),
      { headers: fromNatsHeaders(msg.headers) },
      handler,
      this.log,
    );
    try {
      msg.respond(reply);
    } catch (err) {
      this.log.warn({ err, subject: def.subject }, 'bus reply could not be sent');
    }
  }

  async publish<D>(def: EventDef<D>, data: D, options: PublishOptions = {}): Promise<EventEnvelope<D>> {
    this.assertOpen();
    const { envelope, body } = encodeEvent(def, data, options);
    // msgID lets JetStream drop a retried publish of the same event within the duplicate window.
    const send = () =>
      this.js.publish(def.subject, body, {
        msgID: envelope.id,
        headers: toNatsHeaders(normalizeHeaders(options.headers)),
      });
    try {
      await send();
    } catch (err) {
      // Nothing answers a JetStream publish on the subject (the client reports it as "jetstream is not enabled"):
      // the server lost its streams. Recreate them and try once more.
      const noStream =
        err instanceof Error && (err.name === 'JetStreamNotEnabled' || /no responders/i.test(err.message));
      if (!noStream) throw err;
      this.log.warn({ subject: def.subject }, 'bus stream missing on publish; recreating it');
      await ensureStreams(this.jsm, this.streamOptions);
      await send();
    }
    return envelope;
  }

  async subscribe<D>(
    def: EventDef<D>,
    options: SubscribeOptions,
    handler: EventHandler<D>,
  ): Promise<Subscription> {
    this.assertOpen();
    const policy = retryPolicy(options);
    const since = new Date();
    // Created (or found) before subscribe resolves, so events published from now on reach the group.
    const info = await ensureConsumer(this.jsm, def.subject, policy, undefined, this.youngStoreMs);
    const member: Membership = {
      subject: def.subject,
      policy,
      name: consumerName(policy.durable, def.subject),
      problem: undefined,
      settledUpTo: since,
      retrying: new Map(),
      messages: undefined,
      stopped: false,
      wake: () => undefined,
    };
    this.memberships.add(member);
    const done = this.supervise(def, member, handler, info);
    return this.subscriptions.add(async () => {
      member.stopped = true;
      member.wake();
      await member.messages?.close();
      await done;
      this.memberships.delete(member);
    });
  }

  /**
   * Keeps a member consuming for as long as it is subscribed. When the consumer or the stream vanishes (a server
   * restarted without its storage, an operator deleted it), the pull reports it; the member then recreates the
   * stream and the consumer from where it left off, retrying with backoff, and `health()` reports the gap.
   */
  private async supervise<D>(
    def: EventDef<D>,
    member: Membership,
    handler: EventHandler<D>,
    first: ConsumerInfo,
  ): Promise<void> {
    let info: ConsumerInfo | undefined = first;
    let failures = 0;
    const gone = () => member.stopped || this.nc.isClosed();
    while (!gone()) {
      try {
        info ??= await this.recreate(member);
        const messages = await this.js.consumers
          .getConsumerFromInfo(info)
          // One message at a time per member: members of a group share the work, and nothing waits in a client
          // buffer while its ack_wait runs out.
          .consume({ max_messages: 1, expires: PULL_EXPIRES_MS });
        member.messages = messages;
        if (member.problem) {
          this.log.warn({ subject: member.subject, durable: member.policy.durable }, 'bus consumer is back');
          member.problem = undefined;
        }
        failures = 0;
        void this.watch(member, messages);
        for await (const msg of messages) {
          const action = await this.deliver(def, member.policy, handler, msg);
          const at = new Date(msg.info.timestampNanos / 1e6);
          if (action === 'retry') member.retrying.set(msg.seq, at);
          else {
            member.retrying.delete(msg.seq);
            if (at > member.settledUpTo) member.settledUpTo = at;
          }
        }
      } catch (err) {
        if (gone()) break;
        member.problem ??= `consumer ${member.name}: ${err instanceof Error ? err.message : String(err)}`;
        this.log.warn(
          { err, subject: member.subject, durable: member.policy.durable },
          'bus consumer could not be (re)created; retrying',
        );
        failures += 1;
      }
      member.messages = undefined;
      info = undefined;
      if (gone()) break;
      // The pull ended without unsubscribe: whatever watch() saw is the reason.
      member.problem ??= `consumer ${member.name} stopped`;
      const delay = RECREATE_BACKOFF_MS[Math.min(failures, RECREATE_BACKOFF_MS.length - 1)]!;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        member.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      member.wake = () => undefined;
    }
  }

  /** Stops the pull as soon as it reports its consumer or stream gone, so that supervise() recreates them. */
  private async watch(member: Membership, messages: ConsumerMessages): Promise<void> {
    for await (const status of messages.status()) {
      const lost = lostConsumer(status);
      if (!lost || member.stopped) continue;
      member.problem = lost;
      this.log.warn(
        { subject: member.subject, durable: member.policy.durable, problem: lost },
        'bus consumer lost; recreating it',
      );
      messages.stop();
      return;
    }
  }

  private async recreate(member: Membership): Promise<ConsumerInfo> {
    await ensureStreams(this.jsm, this.streamOptions);
    // From the oldest event this member still owes a retry, else from the last one it settled.
    const resumeFrom = new Date(
      Math.min(member.settledUpTo.getTime(), ...[...member.retrying.values()].map((d) => d.getTime())),
    );
    const info = await ensureConsumer(this.jsm, member.subject, member.policy, resumeFrom);
    // The recreated consumer delivers those events again; sequences of a recreated stream start over.
    member.retrying.clear();
    member.settledUpTo = resumeFrom;
    this.log.warn(
      { subject: member.subject, durable: member.policy.durable, resumeFrom },
      'bus consumer recreated',
    );
    return info;
  }

  private async deliver<D>(
    def: EventDef<D>,
    policy: RetryPolicy,
    handler: EventHandler<D>,
    msg: JsMsg,
  ): Promise<'ack' | 'retry' | 'term'> {
    const ctx = { headers: fromNatsHeaders(msg.headers), deliveryCount: msg.info.deliveryCount };
    const progress = setInterval(() => {
      try {
        msg.working();
      } catch {
        // the connection is gone; the server will redeliver the event to a live member
      }
    }, ACK_WAIT_MS / 3);
    const outcome = await deliverEvent(def, msg.string(), ctx, handler).finally(() =>
      clearInterval(progress),
    );
    const verdict = settle(outcome, ctx.deliveryCount, policy, def.subject);
    if (verdict.action === 'ack') {
      msg.ack();
      return 'ack';
    }
    const failure = { subject: def.subject, durable: policy.durable, deliveries: ctx.deliveryCount };
    if (verdict.action === 'retry') {
      this.log.warn({ ...failure, error: outcome.ok ? '' : outcome.error }, 'bus event failed, will retry');
      msg.nak(verdict.delayMs);
      return 'retry';
    }
    this.log.error({ ...failure, error: verdict.letter.error }, 'bus event dead-lettered');
    try {
      await this.js.publish(deadLetterSubject(policy.durable), JSON.stringify(verdict.letter));
    } catch (err) {
      // The last delivery is spent either way; the letter in the log is what remains of the event.
      this.log.error({ err, letter: verdict.letter }, 'bus dead letter could not be stored');
    }
    msg.term();
    return 'term';
  }

  /** The EVENTS stream's creation time: a server that lost its storage (or a deleted stream) makes a new one. */
  async eventStoreEpoch(): Promise<string> {
    this.assertOpen();
    try {
      return (await this.jsm.streams.info(EVENTS_STREAM)).created;
    } catch (err) {
      if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
      await ensureStreams(this.jsm, this.streamOptions);
      return (await this.jsm.streams.info(EVENTS_STREAM)).created;
    }
  }

  async listen<D>(def: EventDef<D>, handler: EventHandler<D>): Promise<Subscription> {
    this.assertOpen();
    const inflight = new InFlight();
    // Core subscription: JetStream publishes are ordinary messages on the subject, so every listener sees them.
    const sub = this.nc.subscribe(def.subject, {
      callback: (err, msg) => {
        if (err) return this.log.error({ err, subject: def.subject }, 'bus listener subscription failed');
        void inflight.track(
          deliverToListener(def, msg.string(), fromNatsHeaders(msg.headers), handler, this.log),
        );
      },
    });
    await this.nc.flush();
    return this.subscriptions.add(async () => {
      if (!this.nc.isClosed()) await sub.drain();
      await inflight.idle();
    });
  }

  async onDeadLetter(durable: string, handler: (letter: DeadLetter) => void): Promise<Subscription> {
    this.assertOpen();
    const sub = this.nc.subscribe(deadLetterSubject(durable), {
      callback: (err, msg) => {
        if (err) return this.log.error({ err, durable }, 'bus dead-letter subscription failed');
        const letter = decodeDeadLetter(msg.string());
        if (!letter) return this.log.warn({ durable }, 'bus ignored a malformed dead letter');
        try {
          handler(letter);
        } catch (err) {
          this.log.warn({ err, durable }, 'bus dead-letter listener failed');
        }
      },
    });
    await this.nc.flush();
    return this.subscriptions.add(async () => {
      if (!this.nc.isClosed()) await sub.drain();
    });
  }

  async health(): Promise<BusHealth> {
    if (this.closing || this.nc.isClosed()) return { ok: false, problems: ['bus is closed'] };
    try {
      await within(PING_TIMEOUT_MS, 'nats did not answer a ping', this.nc.flush());
    } catch (err) {
      return { ok: false, problems: [err instanceof Error ? err.message : String(err)] };
    }
    const problems = await Promise.all([...this.memberships].map((m) => this.checkMembership(m)));
    const found = problems.filter((p): p is string => p !== undefined);
    return { ok: found.length === 0, problems: found };
  }

  /**
   * A member's problem, looking at the server too: a consumer deleted under a quiet pull is only reported by the
   * pull after its next expiry, while `/readyz` should know now (and the member should start recreating it).
   */
  private async checkMembership(member: Membership): Promise<string | undefined> {
    if (member.stopped) return undefined;
    const where = `durable group ${member.policy.durable} on ${member.subject}`;
    if (member.problem) return `${where}: ${member.problem}`;
    try {
      await within(PING_TIMEOUT_MS, 'no consumer info', this.jsm.consumers.info(EVENTS_STREAM, member.name));
      return undefined;
    } catch (err) {
      const missing =
        isApiError(err, JetStreamApiCodes.ConsumerNotFound) ||
        isApiError(err, JetStreamApiCodes.StreamNotFound);
      if (!missing) return `${where}: ${err instanceof Error ? err.message : String(err)}`;
      const lost = isApiError(err, JetStreamApiCodes.StreamNotFound)
        ? 'stream EVENTS not found'
        : 'consumer not found';
      if (!member.problem && !member.stopped) {
        member.problem = lost;
        this.log.warn(
          { subject: member.subject, durable: member.policy.durable, problem: lost },
          'bus consumer lost; recreating it',
        );
        member.messages?.stop();
      }
      return `${where}: ${lost}`;
    }
  }

  async ping(): Promise<void> {
    this.assertOpen();
    const { ok, problems } = await this.health();
    if (!ok) throw new Error(problems.join('; '));
  }

  /** Stops every subscription (letting running handlers finish and ack), then drains the connection. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.subscriptions.closeAll();
      if (!this.nc.isClosed()) await this.nc.drain();
    })();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing || this.nc.isClosed()) throw new Error('bus is closed');
  }
}
