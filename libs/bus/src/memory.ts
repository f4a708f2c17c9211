// The bus port over the in-process broker (`BUS_URL=memory:`): the single-process mode and most tests.
// Messages cross the broker as JSON text, exactly as they would cross NATS, so nothing is shared by reference.
import type { Logger } from '@murmur/core';
import { deadLetterSubject, type EventDef, type EventEnvelope, type RequestDef } from '@murmur/contracts';
import { retryPolicy, settle } from './delivery.js';
import { InFlight, SubscriptionSet } from './inflight.js';
import type { MemoryBroker, Settlement } from './memory-broker.js';
import type {
  Bus,
  BusClientOptions,
  BusHealth,
  DeadLetter,
  EventHandler,
  PublishOptions,
  RequestHandler,
  RequestOptions,
  SubscribeOptions,
  Subscription,
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

export class MemoryBus implements Bus {
  readonly kind = 'memory';
  private readonly log: Logger;
  private readonly subscriptions = new SubscriptionSet();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly broker: MemoryBroker,
    options: BusClientOptions,
  ) {
    this.log = options.logger.child({ component: 'bus', bus: 'memory', service: options.service });
  }

  async request<Req, Res>(
    def: RequestDef<Req, Res>,
    payload: Req,
    options: RequestOptions = {},
  ): Promise<Res> {
    this.assertOpen();
    const body = encodeRequest(def, payload);
    const headers = normalizeHeaders(options.headers);
    const reply = await this.broker.request(
      def.subject,
      body,
      headers,
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    return readReply(def, reply);
  }

  async handle<Req, Res>(
    def: RequestDef<Req, Res>,
    handler: RequestHandler<Req, Res>,
  ): Promise<Subscription> {
    this.assertOpen();
    const inflight = new InFlight();
    const remove = this.broker.addResponder(def.subject, def.owner, (body, headers) =>
      inflight.track(answerRequest(def, body, { headers: normalizeHeaders(headers) }, handler, this.log)),
    );
    return this.subscriptions.add(async () => {
      remove();
      await inflight.idle();
    });
  }

  async publish<D>(def: EventDef<D>, data: D, options: PublishOptions = {}): Promise<EventEnvelope<D>> {
    this.assertOpen();
    const { envelope, body } = encodeEvent(def, data, options);
    this.broker.storeEvent(def.subject, body, normalizeHeaders(options.headers), envelope.id);
    return envelope;
  }

  async subscribe<D>(
    def: EventDef<D>,
    options: SubscribeOptions,
    handler: EventHandler<D>,
  ): Promise<Subscription> {
    this.assertOpen();
    const policy = retryPolicy(options);
    const inflight = new InFlight();
    const leave = this.broker.durableGroup(policy.durable, def.subject).join((delivery) =>
      inflight.track(
        (async (): Promise<Settlement> => {
          const ctx = {
            headers: normalizeHeaders(delivery.event.headers),
            deliveryCount: delivery.deliveries,
          };
          const outcome = await deliverEvent(def, delivery.event.body, ctx, handler);
          const verdict = settle(outcome, ctx.deliveryCount, policy, def.subject);
          if (verdict.action === 'ack') return verdict;
          const failure = { subject: def.subject, durable: policy.durable, deliveries: ctx.deliveryCount };
          if (verdict.action === 'retry') {
            this.log.warn(
              { ...failure, error: outcome.ok ? '' : outcome.error },
              'bus event failed, will retry',
            );
            return verdict;
          }
          this.log.error({ ...failure, error: verdict.letter.error }, 'bus event dead-lettered');
          this.broker.emit(deadLetterSubject(policy.durable), JSON.stringify(verdict.letter), {});
          return { action: 'term' };
        })(),
      ),
    );
    return this.subscriptions.add(async () => {
      leave();
      await inflight.idle();
    });
  }

  async listen<D>(def: EventDef<D>, handler: EventHandler<D>): Promise<Subscription> {
    this.assertOpen();
    const inflight = new InFlight();
    const remove = this.broker.addListener(def.subject, (body, headers) => {
      void inflight.track(deliverToListener(def, body, normalizeHeaders(headers), handler, this.log));
    });
    return this.subscriptions.add(async () => {
      remove();
      await inflight.idle();
    });
  }

  async onDeadLetter(durable: string, handler: (letter: DeadLetter) => void): Promise<Subscription> {
    this.assertOpen();
    const remove = this.broker.addListener(deadLetterSubject(durable), (body) => {
      const letter = decodeDeadLetter(body);
      if (!letter) return this.log.warn({ durable }, 'bus ignored a malformed dead letter');
      try {
        handler(letter);
      } catch (err) {
        this.log.warn({ err, durable }, 'bus dead-letter listener failed');
      }
    });
    return this.subscriptions.add(async () => remove());
  }

  /** The broker keeps its events for as long as it exists: one epoch per broker. */
  async eventStoreEpoch(): Promise<string> {
    this.assertOpen();
    return this.broker.epoch;
  }

  async health(): Promise<BusHealth> {
    return this.closing ? { ok: false, problems: ['bus is closed'] } : { ok: true, problems: [] };
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  close(): Promise<void> {
    this.closing ??= this.subscriptions.closeAll();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('bus is closed');
  }
}
