// What the outbox promises, on any bus: a state change's event is recorded in the store even while the bus is down,
// published once the bus is back, in the order it was recorded, and delivered once to a durable group even when the
// relay publishes it twice. Run on memory (outbox.test.ts) and on a real nats-server (bus/nats-outbox.test.ts).
import { afterEach, expect, test } from '@jest/globals';
import type { EventEnvelope } from '@murmur/contracts';
import type { Bus } from '@murmur/bus';
import { createOutbox, eventIdFor, type Outbox, type OutboxDoc } from '../../src/outbox/index.js';
import { openStore } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import { testLogger } from '@murmur/testing';
import { fresh, freshEvent, sleep, waitFor } from '../../../bus/test/helpers.js';

export interface OutboxHarness {
  /** A bus client ("process") on the broker under test. */
  connect(service: string): Promise<Bus>;
  /** Makes the bus unavailable to publishers (NATS: the server stops). */
  down(): Promise<void>;
  up(): Promise<void>;
  /** How long the bus may take to come back after up(). */
  recoveryMs: number;
}

export function defineOutboxContract(harness: () => OutboxHarness): void {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup() {
    const h = harness();
    const store: Store = await openStore('memory:', { service: 'outbox-test' });
    const [producerBus, readerBus] = [await h.connect('identity'), await h.connect('reader')];
    const outbox = createOutbox({
      store,
      bus: producerBus,
      logger: testLogger(),
      service: 'identity',
      pollIntervalMs: 50,
      backoffBaseMs: 50,
      backoffMaxMs: 400,
    });
    cleanups.push(async () => {
      await outbox.stop();
      await producerBus.close();
      await readerBus.close();
      await store.close();
    });
    const { published } = freshEvent();
    const seen: Array<EventEnvelope<{ n: number }>> = [];
    await readerBus.subscribe(published, { durable: fresh('reader-users') }, async (e) => {
      seen.push(e);
    });
    await outbox.start();
    return { h, store, outbox, published, seen };
  }

  test('while the bus is down the state change still succeeds; its event is delivered once the bus is back', async () => {
    const { h, outbox, published, seen } = await setup();
    await h.down();
    try {
      const envelope = await outbox.publish(
        published,
        { n: 1 },
        { id: eventIdFor('identity', 'user', 1, 1) },
      );
      expect(envelope).toMatchObject({ id: 'identity.user.1.r1', data: { n: 1 } });
      await expect(outbox.pending()).resolves.toBe(1);
    } finally {
      await h.up();
    }
    await waitFor('the event after recovery', () => seen.length === 1, h.recoveryMs);
    expect(seen[0]).toMatchObject({ id: 'identity.user.1.r1', data: { n: 1 } });
    await expect(waitForPending(outbox, 0, h.recoveryMs)).resolves.toBeUndefined();
  }, 60_000);

  test('events recorded while the bus is down are published in the order they were recorded', async () => {
    const { h, outbox, published, seen } = await setup();
    await h.down();
    try {
      for (let n = 1; n <= 5; n++) await outbox.publish(published, { n });
    } finally {
      await h.up();
    }
    await waitFor('five events', () => seen.length >= 5, h.recoveryMs);
    await sleep(100);
    expect(seen.map((e) => e.data.n)).toEqual([1, 2, 3, 4, 5]);
  }, 60_000);

  test('a relay that publishes an event twice (its "sent" mark was lost) still delivers it once to the group', async () => {
    const { store, outbox, published, seen } = await setup();
    await outbox.publish(published, { n: 1 }, { id: fresh('evt-') });
    await waitFor('the event', () => seen.length === 1);
    await waitForPending(outbox, 0, 5000);
    // As if the relay had crashed between publishing and marking the event sent: it publishes it again.
    await store.collection<OutboxDoc>('outbox').updateMany({ state: 'sent' }, { $set: { state: 'ready' } });
    await outbox.flush();
    await waitForPending(outbox, 0, 5000);
    await outbox.publish(published, { n: 2 });
    await waitFor('the next event', () => seen.length >= 2);
    await sleep(150);
    expect(seen.map((e) => e.data.n)).toEqual([1, 2]);
  });

  test('recording the same id again (a client retry) keeps the first envelope and publishes it once', async () => {
    const { outbox, published, seen } = await setup();
    const id = eventIdFor('identity', 'user', fresh('u'), 3);
    const first = await outbox.publish(published, { n: 1 }, { id });
    const again = await outbox.publish(published, { n: 1 }, { id });
    expect(again).toEqual(first);
    await outbox.publish(published, { n: 2 });
    await waitFor('two events', () => seen.length >= 2);
    await sleep(150);
    expect(seen.map((e) => e.id)).toEqual([id, expect.any(String)]);
  });
}

async function waitForPending(outbox: Outbox, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await outbox.pending()) !== count) {
    if (Date.now() > deadline) throw new Error(`outbox still has ${await outbox.pending()} pending events`);
    await sleep(20);
  }
}
