// NATS losing its store (restarted without its volume) while an event the relay already sent is still waiting in the
// stream for a durable group: the stream is gone, and the outbox had marked the event `sent`. The relay must notice
// that the stream it sent to no longer exists and publish again what it sent there, so that the group still gets it.
// (Found by the chaos suite, test-e2e/chaos: a `user.created` sent 0.1 s before the wipe never got its site.)
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { EventEnvelope } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { connectBus, openStore } from '@murmur/runtime';
import { createOutbox, type Outbox } from '../../src/outbox/index.js';
import { type Store } from '@murmur/store';
import { testLogger, describeWithNats } from '@murmur/testing';
import { fresh, freshEvent, waitFor } from '../../../bus/test/helpers.js';
import { startRestartableNats, type RestartableNats } from '../../../bus-nats/test/restartable-nats.js';

describeWithNats('outbox on NATS that loses its store', () => {
  let nats: RestartableNats;
  let store: Store;
  let producer: Bus;
  let consumer: Bus;
  let outbox: Outbox;
  beforeAll(async () => {
    nats = await startRestartableNats();
    store = await openStore('memory:', { service: 'outbox-test' });
    producer = await connectBus(nats.url, { service: 'identity', logger: testLogger() });
    consumer = await connectBus(nats.url, { service: 'publishing', logger: testLogger() });
    outbox = createOutbox({
      store,
      bus: producer,
      logger: testLogger(),
      service: 'identity',
      pollIntervalMs: 50,
      backoffBaseMs: 50,
      backoffMaxMs: 400,
    });
    await outbox.start();
  });
  afterAll(async () => {
    await outbox?.stop();
    await producer?.close();
    await consumer?.close();
    await store?.close();
    await nats?.dispose();
  });

  test('an event sent but not yet handled when the stream was lost is published again and handled', async () => {
    const { published } = freshEvent();
    const handled: Array<EventEnvelope<{ n: number }>> = [];
    let release: () => void = () => undefined;
    const busy = new Promise<void>((resolve) => (release = resolve));
    // The group is slow: it holds the first event while the second waits in the stream behind it.
    await consumer.subscribe(published, { durable: fresh('slow-group') }, async (e) => {
      if (e.data.n === 1) await busy;
      handled.push(e);
    });
    const first = await outbox.publish(published, { n: 1 });
    const second = await outbox.publish(published, { n: 2 });
    for (const deadline = Date.now() + 10_000; (await outbox.pending()) > 0;) {
      if (Date.now() > deadline) throw new Error('the relay did not send both events');
      await new Promise((r) => setTimeout(r, 20));
    }

    // NATS restarts with an empty store: the second event, sent and acknowledged by JetStream, is gone with it.
    await nats.stop();
    await nats.start({ wipe: true });
    release();

    await waitFor(
      'the second event handled after NATS lost its store',
      () => handled.some((e) => e.id === second.id),
      45_000,
    );
    expect(handled.map((e) => e.id)).toContain(first.id);
  }, 60_000);
});
