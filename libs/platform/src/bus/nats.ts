// The bus port over NATS (`BUS_URL=nats://…`): core request/reply in queue groups, JetStream for durable events,
// plain core subscriptions for listen() and dead-letter listeners. See docs/adr/0002-bus.md.
import type { Logger } from 'pino';
import {
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
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
import { retryPolicy, settle, type RetryPolicy } from './delivery.js';
import { InFlight, SubscriptionSet } from './inflight.js';
import { ACK_WAIT_MS, ensureConsumer, ensureStreams } from './nats-streams.js';
import {
  BusNoResponderError,
  BusTimeoutError,
  type Bus,
  type BusClientOptions,
  type DeadLetter,
  type EventHandler,
  type Headers,
  type PublishOptions,
  type RequestHandler,
  type RequestOptions,
  type SubscribeOptions,
  type Subscription,
} from './port.js';
import {
  answerRequest,
  decodeDeadLetter,
  DEFAULT_TIMEOUT_MS,
  deliverEvent,
  deliverToListener,
  encodeEvent,
  encodeRequest,
  normalizeHeaders,
  readReply,
} from './wire.js';

/** `/readyz` must answer even while the client is reconnecting, when a flush would wait for the connection. */
const PING_TIMEOUT_MS = 2000;

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

export class NatsBus implements Bus {
  readonly kind = 'nats';
  private readonly log: Logger;
  private readonly js: JetStreamClient;
  private readonly subscriptions = new SubscriptionSet();
  private closing: Promise<void> | undefined;

  /** Connects and makes sure the EVENTS and DEADLETTER streams exist with the current limits. */
  static async connect(servers: string[], options: BusClientOptions): Promise<NatsBus> {
    // Reconnect forever: a service outlives a NATS restart; /readyz reports the gap meanwhile.
    const nc = await connect({ servers, name: options.service, maxReconnectAttempts: -1, ...options.auth });
    try {
      const jsm = await jetstreamManager(nc);
      await ensureStreams(jsm);
      return new NatsBus(nc, jsm, options);
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
    const { envelope, body } = encodeEvent(def, data, options.id);
    // msgID lets JetStream drop a retried publish of the same event within the duplicate window.
    await this.js.publish(def.subject, body, {
      msgID: envelope.id,
      headers: toNatsHeaders(normalizeHeaders(options.headers)),
    });
    return envelope;
  }

  async subscribe<D>(
    def: EventDef<D>,
    options: SubscribeOptions,
    handler: EventHandler<D>,
  ): Promise<Subscription> {
    this.assertOpen();
    const policy = retryPolicy(options);
    const info = await ensureConsumer(this.jsm, def.subject, policy);
    // One message at a time per member: members of a group share the work, and nothing waits in a client buffer
    // while its ack_wait runs out.
    const messages = await this.js.consumers.getConsumerFromInfo(info).consume({ max_messages: 1 });
    const done = this.consumeLoop(def, policy, handler, messages);
    return this.subscriptions.add(async () => {
      await messages.close();
      await done;
    });
  }

  private async consumeLoop<D>(
    def: EventDef<D>,
    policy: RetryPolicy,
    handler: EventHandler<D>,
    messages: ConsumerMessages,
  ) {
    try {
      for await (const msg of messages) await this.deliver(def, policy, handler, msg);
    } catch (err) {
      this.log.error({ err, subject: def.subject, durable: policy.durable }, 'bus consumer stopped');
    }
  }

  private async deliver<D>(
    def: EventDef<D>,
    policy: RetryPolicy,
    handler: EventHandler<D>,
    msg: JsMsg,
  ): Promise<void> {
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
    if (verdict.action === 'ack') return msg.ack();
    const failure = { subject: def.subject, durable: policy.durable, deliveries: ctx.deliveryCount };
    if (verdict.action === 'retry') {
      this.log.warn({ ...failure, error: outcome.ok ? '' : outcome.error }, 'bus event failed, will retry');
      return msg.nak(verdict.delayMs);
    }
    this.log.error({ ...failure, error: verdict.letter.error }, 'bus event dead-lettered');
    try {
      await this.js.publish(deadLetterSubject(policy.durable), JSON.stringify(verdict.letter));
    } catch (err) {
      // The last delivery is spent either way; the letter in the log is what remains of the event.
      this.log.error({ err, letter: verdict.letter }, 'bus dead letter could not be stored');
    }
    msg.term();
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

  async ping(): Promise<void> {
    this.assertOpen();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`nats did not answer a ping within ${PING_TIMEOUT_MS} ms`)),
        PING_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.nc.flush(), timeout]);
    } finally {
      clearTimeout(timer);
    }
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
