// The in-process broker behind `memory:` URLs. It models what NATS does for the bus — core request/reply with
// queue groups, core fan-out, a JetStream stream with durable consumers — and every hop is asynchronous, like a
// network, so code that works here does not rely on anything NATS would not give it.
import { randomUUID } from 'node:crypto';
import { DUPLICATE_WINDOW_MS, EVENT_MAX_AGE_MS } from './delivery.js';
import { BusNoResponderError, BusTimeoutError, type Headers } from './port.js';

export type Responder = (body: string, headers: Headers) => Promise<string>;
export type CoreListener = (body: string, headers: Headers) => void;

export interface StoredEvent {
  subject: string;
  body: string;
  headers: Headers;
  storedAt: number;
}

export interface Delivery {
  event: StoredEvent;
  /** 1 on the first delivery. */
  deliveries: number;
}

/** What a member answers after an attempt (NATS: ack, nak with a delay, term). */
export type Settlement = { action: 'ack' } | { action: 'retry'; delayMs: number } | { action: 'term' };
export type GroupConsumer = (delivery: Delivery) => Promise<Settlement>;

/** A network hop: nothing is ever delivered inside the call that sent it. */
const hop = (fn: () => void) => void setImmediate(fn);

/**
 * A durable consumer: it keeps the events published since its creation until a member settles them. Like a NATS
 * pull consumer asking for one message at a time, a member holds at most one event, so members share the work.
 */
export class DurableGroup {
  private readonly waiting: Delivery[] = [];
  private readonly members: Array<{ consume: GroupConsumer; busy: boolean }> = [];
  private cursor = 0;
  private scheduled = false;

  add(event: StoredEvent): void {
    this.waiting.push({ event, deliveries: 0 });
    this.schedule();
  }

  /** Returns `leave`; an attempt already running still settles (acks after leaving count, as on NATS). */
  join(consume: GroupConsumer): () => void {
    const member = { consume, busy: false };
    this.members.push(member);
    this.schedule();
    return () => {
      const i = this.members.indexOf(member);
      if (i >= 0) this.members.splice(i, 1);
    };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    hop(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    const oldest = Date.now() - EVENT_MAX_AGE_MS;
    while (this.waiting.length > 0 && this.waiting[0]!.event.storedAt < oldest) this.waiting.shift();
    while (this.waiting.length > 0) {
      const member = this.nextIdleMember();
      if (!member) return;
      const delivery = this.waiting.shift()!;
      delivery.deliveries += 1;
      member.busy = true;
      member.consume(delivery).then(
        (settlement) => this.settled(member, delivery, settlement),
        // A consumer that throws behaves like a client that never answers: NATS would redeliver after ack_wait.
        () => this.settled(member, delivery, { action: 'retry', delayMs: 0 }),
      );
    }
  }

  private settled(member: { busy: boolean }, delivery: Delivery, settlement: Settlement): void {
    member.busy = false;
    if (settlement.action === 'retry') {
      // Redeliveries go ahead of newer events, as JetStream does. unref: a pending retry must not keep a process alive.
      setTimeout(() => {
        this.waiting.unshift(delivery);
        this.schedule();
      }, settlement.delayMs).unref();
    }
    this.schedule();
  }

  private nextIdleMember(): { consume: GroupConsumer; busy: boolean } | undefined {
    for (let i = 0; i < this.members.length; i++) {
      const member = this.members[(this.cursor + i) % this.members.length]!;
      if (!member.busy) {
        this.cursor = (this.cursor + i + 1) % this.members.length;
        return member;
      }
    }
    return undefined;
  }
}

export class MemoryBroker {
  /** Its stored events live as long as the broker: see Bus.eventStoreEpoch. */
  readonly epoch = randomUUID();
  /** subject → queue group → members, answered in turn. */
  private readonly responders = new Map<string, Map<string, { members: Responder[]; next: number }>>();
  private readonly listeners = new Map<string, Set<CoreListener>>();
  private readonly groups = new Map<string, DurableGroup>();
  private readonly groupsBySubject = new Map<string, Set<DurableGroup>>();
  /** Event ids seen within the duplicate window, oldest first. */
  private readonly recentIds = new Map<string, number>();

  addResponder(subject: string, queue: string, responder: Responder): () => void {
    const queues = this.responders.get(subject) ?? new Map<string, { members: Responder[]; next: number }>();
    this.responders.set(subject, queues);
    const group = queues.get(queue) ?? { members: [], next: 0 };
    queues.set(queue, group);
    group.members.push(responder);
    return () => {
      const i = group.members.indexOf(responder);
      if (i >= 0) group.members.splice(i, 1);
    };
  }

  /** Core request: one member of each queue group on the subject gets it, the first reply wins. */
  request(subject: string, body: string, headers: Headers, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new BusTimeoutError(subject, timeoutMs))),
        timeoutMs,
      );
      hop(() => {
        const chosen = this.pickResponders(subject);
        if (chosen.length === 0) return finish(() => reject(new BusNoResponderError(subject)));
        for (const respond of chosen) {
          respond(body, { ...headers }).then(
            (reply) => hop(() => finish(() => resolve(reply))),
            () => undefined, // a responder that fails to answer is silence; the requester times out
          );
        }
      });
    });
  }

  private pickResponders(subject: string): Responder[] {
    const chosen: Responder[] = [];
    for (const group of this.responders.get(subject)?.values() ?? []) {
      if (group.members.length === 0) continue;
      group.next %= group.members.length;
      chosen.push(group.members[group.next]!);
      group.next += 1;
    }
    return chosen;
  }

  addListener(subject: string, listener: CoreListener): () => void {
    const set = this.listeners.get(subject) ?? new Set<CoreListener>();
    this.listeners.set(subject, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Core publish: every listener subscribed at this moment gets its own copy, later. */
  emit(subject: string, body: string, headers: Headers): void {
    const targets = [...(this.listeners.get(subject) ?? [])];
    hop(() => {
      for (const listener of targets) listener(body, { ...headers });
    });
  }

  durableGroup(durable: string, subject: string): DurableGroup {
    const key = `${durable}\u0000${subject}`;
    let group = this.groups.get(key);
    if (!group) {
      group = new DurableGroup();
      this.groups.set(key, group);
      const set = this.groupsBySubject.get(subject) ?? new Set<DurableGroup>();
      this.groupsBySubject.set(subject, set);
      set.add(group);
    }
    return group;
  }

  /**
   * JetStream publish: a core message (so listeners see every copy, duplicates too) that the stream stores for each
   * durable group of the subject, once per event id within the duplicate window.
   */
  storeEvent(subject: string, body: string, headers: Headers, id: string): void {
    this.emit(subject, body, headers);
    const now = Date.now();
    for (const [seen, at] of this.recentIds) {
      if (at > now - DUPLICATE_WINDOW_MS) break;
      this.recentIds.delete(seen);
    }
    if (this.recentIds.has(id)) return;
    this.recentIds.set(id, now);
    for (const group of this.groupsBySubject.get(subject) ?? [])
      group.add({ subject, body, headers, storedAt: now });
  }
}

const brokers = new Map<string, MemoryBroker>();

/** The process-wide broker (`''`) or a named one; the same name always gives the same broker. */
export function memoryBroker(name = ''): MemoryBroker {
  let broker = brokers.get(name);
  if (!broker) {
    broker = new MemoryBroker();
    brokers.set(name, broker);
  }
  return broker;
}
