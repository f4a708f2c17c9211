// The outbox on the in-process bus: the shared outbox contract (the bus "down" is a publisher whose broker refuses,
// as NATS does while unreachable), plus staging, verifiers, validation and several relays on one store.
import { afterEach, describe, expect, test } from '@jest/globals';
import type { EventEnvelope } from '@murmur/contracts';
import { BusNoResponderError, BusValidationError, type Bus } from '@murmur/bus';
import { connectBus, openStore } from '@murmur/runtime';
import { createOutbox, type Outbox, type OutboxDoc } from '../../src/outbox/index.js';
import { type Store } from '@murmur/store';
import { testLogger } from '@murmur/testing';
import { fresh, freshEvent, sleep, waitFor } from '../../../bus/test/helpers.js';
import { defineOutboxContract } from './outbox-contract.js';

/** A client whose publishes fail like an unreachable NATS while `state.down` is set; everything else is the bus. */
function unreliable(bus: Bus, state: { down: boolean; publishes: number }): Bus {
  return new Proxy(bus, {
    get(target, prop) {
      if (prop === 'publish') {
        return async (...args: Parameters<Bus['publish']>) => {
          state.publishes += 1;
          if (state.down) throw new BusNoResponderError(args[0].subject);
          return target.publish(...args);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('outbox on the memory bus', () => {
  let broker = 0;
  defineOutboxContract(() => {
    broker += 1;
    const state = { down: false, publishes: 0 };
    const url = `memory:outbox-${broker}`;
    return {
      connect: async (service) => unreliable(await connectBus(url, { service, logger: testLogger() }), state),
      down: async () => {
        state.down = true;
      },
      up: async () => {
        state.down = false;
      },
      recoveryMs: 5000,
    };
  });

  describe('staging, verifiers and relays', () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    async function setup(options: { stagedTimeoutMs?: number; store?: Store; url?: string } = {}) {
      const store = options.store ?? (await openStore('memory:', { service: 'outbox-test' }));
      const url = options.url ?? `memory:${fresh('outbox-stage-')}`;
      const state = { down: false, publishes: 0 };
      const bus = unreliable(await connectBus(url, { service: 'identity', logger: testLogger() }), state);
      const outbox = createOutbox({
        store,
        bus,
        logger: testLogger(),
        service: 'identity',
        pollIntervalMs: 30,
        backoffBaseMs: 30,
        backoffMaxMs: 200,
        stagedTimeoutMs: options.stagedTimeoutMs ?? 100,
      });
      cleanups.push(async () => {
        await outbox.stop();
        await bus.close();
        if (!options.store) await store.close();
      });
      return { store, url, state, bus, outbox };
    }

    async function follow(url: string, def: ReturnType<typeof freshEvent>['published']) {
      const reader = await connectBus(url, { service: 'reader', logger: testLogger() });
      cleanups.push(() => reader.close());
      const seen: Array<EventEnvelope<{ n: number }>> = [];
      await reader.subscribe(def, { durable: fresh('reader-x') }, async (e) => {
        seen.push(e);
      });
      return seen;
    }

    test('events sent into an event store the bus has since lost go out again, oldest first; later ones once', async () => {
      const store = await openStore('memory:', { service: 'outbox-test' });
      const real = await connectBus(`memory:${fresh('outbox-epoch-')}`, {
        service: 'identity',
        logger: testLogger(),
      });
      // A bus whose stored events can be "lost": a new epoch, as NATS after a restart without its storage.
      let epoch = 'first';
      const sent: number[] = [];
      const bus = new Proxy(real, {
        get(target, prop) {
          if (prop === 'eventStoreEpoch') return async () => epoch;
          if (prop === 'publish') {
            return async (...args: Parameters<Bus['publish']>) => {
              sent.push((args[1] as { n: number }).n);
              return target.publish(...args);
            };
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const outbox = createOutbox({
        store,
        bus,
        logger: testLogger(),
        service: 'identity',
        pollIntervalMs: 20,
        epochCheckIntervalMs: 20,
      });
      cleanups.push(async () => {
        await outbox.stop();
        await real.close();
        await store.close();
      });
      const { published } = freshEvent();
      await outbox.start();
      await outbox.publish(published, { n: 1 });
      await outbox.publish(published, { n: 2 });
      await waitFor('both sent', () => sent.length === 2);
      await sleep(100);
      expect(sent).toEqual([1, 2]); // nothing again while the epoch stays

      epoch = 'second';
      await waitFor('both sent again', () => sent.length === 4, 2000);
      await outbox.publish(published, { n: 3 });
      await waitFor('the third sent', () => sent.length === 5, 2000);
      await sleep(100);
      expect(sent).toEqual([1, 2, 1, 2, 3]);
      await expect(outbox.pending()).resolves.toBe(0);
    });

    test('stage → state written → commit publishes the event', async () => {
      const { url, outbox } = await setup({ stagedTimeoutMs: 60_000 });
      const { published } = freshEvent();
      const seen = await follow(url, published);
      outbox.verify(published, async () => true);
      await outbox.start();
      const staged = await outbox.stage(published, { n: 1 });
      await sleep(100);
      expect(seen).toEqual([]); // not before the state exists
      await staged.commit();
      await waitFor('the committed event', () => seen.length === 1);
      expect(seen[0]!.id).toBe(staged.envelope.id);
    });

    test('a staged event whose process died before commit is published if its state exists, dropped if not', async () => {
      const { url, outbox } = await setup({ stagedTimeoutMs: 50 });
      const { published } = freshEvent();
      const seen = await follow(url, published);
      const stored = new Set<number>([1]); // the state of event 1 was written, that of event 2 never was
      outbox.verify(published, async (e) => stored.has(e.data.n));
      await outbox.stage(published, { n: 1 });
      await outbox.stage(published, { n: 2 });
      await outbox.start();
      await waitFor('the verified event', () => seen.length === 1);
      for (let i = 0; i < 100 && (await outbox.pending()) > 0; i++) await sleep(10);
      await expect(outbox.pending()).resolves.toBe(0);
      expect(seen.map((e) => e.data.n)).toEqual([1]);
    });

    test('discard after a failed write still publishes when an earlier attempt of the same operation stored the state', async () => {
      const { url, outbox } = await setup({ stagedTimeoutMs: 60_000 });
      const { published } = freshEvent();
      const seen = await follow(url, published);
      outbox.verify(published, async (e) => e.data.n === 1);
      await outbox.start();
      const retried = await outbox.stage(published, { n: 1 }, { id: 'identity.user.1.r1' });
      await retried.discard(); // e.g. the insert failed with a duplicate key: the first attempt had stored the user
      const failed = await outbox.stage(published, { n: 2 });
      await failed.discard();
      await waitFor('the event', () => seen.length === 1);
      await sleep(100);
      expect(seen.map((e) => e.data.n)).toEqual([1]);
      await expect(outbox.pending()).resolves.toBe(0);
    });

    test('stage refuses an event type without a verifier; invalid data is refused before anything is stored', async () => {
      const { store, outbox } = await setup();
      const { published } = freshEvent();
      await expect(outbox.stage(published, { n: 1 })).rejects.toThrow(/verifier/);
      const wrong = { n: 'one' } as unknown as { n: number };
      await expect(outbox.publish(published, wrong)).rejects.toBeInstanceOf(BusValidationError);
      await expect(store.collection<OutboxDoc>('outbox').countDocuments({ state: 'ready' })).resolves.toBe(0);
    });

    test('several relays on one store (replicas) publish every event once, in order', async () => {
      const store = await openStore('memory:', { service: 'outbox-test' });
      cleanups.push(() => store.close());
      const url = `memory:${fresh('outbox-replicas-')}`;
      const { published } = freshEvent();
      const seen = await follow(url, published);
      const replicas: Array<{ outbox: Outbox; state: { publishes: number } }> = [];
      for (let i = 0; i < 3; i++) replicas.push(await setup({ store, url }));
      await Promise.all(replicas.map((r) => r.outbox.start()));
      for (let n = 1; n <= 9; n++) await replicas[n % 3]!.outbox.publish(published, { n });
      await waitFor('nine events', () => seen.length >= 9);
      await sleep(150);
      expect(seen.map((e) => e.data.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // One leader did the publishing: no event went out twice.
      expect(replicas.reduce((sum, r) => sum + r.state.publishes, 0)).toBe(9);
    });

    test('a stopped relay publishes nothing; the events wait in the store for the next start', async () => {
      const { url, outbox } = await setup();
      const { published } = freshEvent();
      const seen = await follow(url, published);
      await outbox.publish(published, { n: 1 });
      await sleep(100);
      expect(seen).toEqual([]);
      await expect(outbox.pending()).resolves.toBe(1);
      await outbox.start();
      await waitFor('the event', () => seen.length === 1);
      await outbox.stop();
      await outbox.publish(published, { n: 2 });
      await sleep(100);
      expect(seen).toHaveLength(1);
    });
  });
});
