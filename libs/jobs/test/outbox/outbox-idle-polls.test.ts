// An outbox relay with nothing to publish looks at its store less and less often (src/jobs/idle-poll.ts) —
// by default on the embedded store, at every poll on MongoDB — and still relays at once what this process
// publishes.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@murmur/contracts';
import { connectBus, openStore } from '@murmur/runtime';
import { createOutbox, type OutboxOptions } from '../../src/outbox/index.js';
import { type Store } from '@murmur/store';
import { callsDuring, countingFindOneAndUpdate } from '../support/counting-store.js';
import { testLogger } from '@murmur/testing';
import { fresh, freshEvent, sleep, waitFor } from '../../../bus/test/helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A store reported as `kind` whose collections count the relay's lease renewals (findOneAndUpdate). */
async function countingStore(kind: Store['kind']) {
  const inner = await openStore('memory:', { service: 'outbox-idle' });
  cleanups.push(() => inner.close());
  return countingFindOneAndUpdate(inner, kind);
}

async function startedRelay(store: Store, options: Partial<OutboxOptions> = {}) {
  const bus = await connectBus(`memory:${fresh('outbox-idle-')}`, {
    service: 'identity',
    logger: testLogger(),
  });
  const outbox = createOutbox({
    store,
    bus,
    logger: testLogger(),
    service: 'identity',
    pollIntervalMs: 20,
    ...options,
  });
  cleanups.push(async () => {
    await outbox.stop();
    await bus.close();
  });
  await outbox.start();
  return { outbox, bus };
}

describe('an idle outbox relay', () => {
  it('looks less often the longer it finds nothing, by default on the embedded store only', async () => {
    const embedded = await countingStore('embedded');
    const mongodb = await countingStore('mongodb');
    // The default poll interval (500 ms): idle looks stretch to 2 s on the embedded store.
    await startedRelay(embedded.store, { pollIntervalMs: undefined });
    await startedRelay(mongodb.store, { pollIntervalMs: undefined });
    await sleep(1000);
    const looks = await callsDuring(5000, embedded.counted, mongodb.counted);
    // About 10 looks on MongoDB; 3 on the embedded store (2 s apart).
    expect(looks[1]).toBeGreaterThanOrEqual(6);
    expect(looks[0]).toBeLessThan(looks[1]! * 0.6);
  }, 60_000);

  it('relays at once what this process publishes, however long it has been idle', async () => {
    const { store } = await countingStore('embedded');
    const { outbox, bus } = await startedRelay(store, { pollIntervalMs: 5, idlePollIntervalMs: 10_000 });
    const { published } = freshEvent();
    const seen: Array<{ event: EventEnvelope<unknown>; at: number }> = [];
    await bus.subscribe(published, { durable: fresh('idle-reader-') }, async (event) => {
      seen.push({ event, at: Date.now() });
    });
    await sleep(1000);
    const sent = Date.now();
    await outbox.publish(published, { n: 1 });
    await waitFor('the event', () => seen.length === 1, 2000);
    expect(seen[0]!.at - sent).toBeLessThan(300);
  });
});
