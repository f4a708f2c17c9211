// What a service sees when the NATS server loses its state under it (restarted without its storage, consumers or
// streams deleted by hand): health reports the broken group (so /readyz answers 503), the group's consumer and the
// EVENTS stream come back on their own, and no event published meanwhile is skipped.
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type Bus, type BusHealth } from '@murmur/bus';
import { connectBus } from '@murmur/runtime';
import { consumerName } from '../src/nats-streams.js';
import { describeWithNats, testLogger } from '@murmur/testing';
import { fresh, freshEvent, sleep, waitFor } from '../../bus/test/helpers.js';
import { startRestartableNats, type RestartableNats } from './restartable-nats.js';

/** Polls health until `check` holds (health itself never rejects). */
async function healthUntil(bus: Bus, what: string, check: (h: BusHealth) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last: BusHealth | undefined;
  while (Date.now() < deadline) {
    last = await bus.health();
    if (check(last)) return last;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}; last health: ${JSON.stringify(last)}`);
}

describeWithNats('NATS consumers heal themselves', () => {
  let nats: RestartableNats;
  const open: Bus[] = [];
  const client = async (service: string) => {
    const bus = await connectBus(nats.url, { service, logger: testLogger() });
    open.push(bus);
    return bus;
  };
  beforeAll(async () => {
    nats = await startRestartableNats();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });
  afterAll(async () => {
    await nats?.dispose();
  });

  test('server restarted with an empty store: health fails, then recovers; events published after the restart arrive', async () => {
    const [consumer, producer] = [await client('reader'), await client('identity')];
    const { published } = freshEvent();
    const seen: number[] = [];
    await consumer.subscribe(published, { durable: fresh('reader-users') }, async (e) => {
      seen.push(e.data.n);
    });
    await producer.publish(published, { n: 1 });
    await waitFor('the first event', () => seen.length === 1);
    await expect(consumer.health()).resolves.toEqual({ ok: true, problems: [] });

    await nats.stop();
    await healthUntil(consumer, 'health to fail while the server is down', (h) => !h.ok);
    await expect(consumer.ping()).rejects.toThrow();
    await nats.start({ wipe: true });
    // Published as soon as the producer is back, possibly before the consumer noticed anything: the producer
    // recreates the stream if it is first, and the consumer must not start after this event when it is recreated.
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await producer.publish(published, { n: 2 });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await sleep(100);
      }
    }

    const healed = await healthUntil(consumer, 'health to recover', (h) => h.ok);
    expect(healed.problems).toEqual([]);
    await waitFor('the event published after the restart', () => seen.includes(2), 10_000);
    await expect(consumer.ping()).resolves.toBeUndefined();
    expect(seen).toEqual([1, 2]);
  }, 60_000);

  test('a deleted consumer: health names the group, the consumer is recreated, and events published meanwhile are delivered', async () => {
    const [consumer, producer] = [await client('reader'), await client('identity')];
    const { published } = freshEvent();
    const durable = fresh('reader-posts');
    const seen: number[] = [];
    await consumer.subscribe(published, { durable }, async (e) => {
      seen.push(e.data.n);
    });
    await producer.publish(published, { n: 1 });
    await waitFor('the first event', () => seen.length === 1);

    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.consumers.delete('EVENTS', consumerName(durable, published.subject));
      // Published while the group has no consumer: a `new` deliver policy on re-creation would skip these.
      await producer.publish(published, { n: 2 });
      await producer.publish(published, { n: 3 });
      const broken = await consumer.health();
      expect(broken.ok).toBe(false);
      expect(broken.problems.join(' ')).toContain(durable);

      await healthUntil(consumer, 'health to recover', (h) => h.ok);
      await waitFor('the events published while the consumer was gone', () => seen.includes(3), 10_000);
      expect(new Set(seen)).toEqual(new Set([1, 2, 3]));
      const info = await jsm.consumers.info('EVENTS', consumerName(durable, published.subject));
      expect(info.config.deliver_policy).toBe('by_start_time');
    } finally {
      await nc.close();
    }
  }, 60_000);

  test('an event waiting for its retry when the consumer vanishes is still delivered after the re-creation', async () => {
    const [consumer, producer] = [await client('reader'), await client('identity')];
    const { published } = freshEvent();
    const durable = fresh('reader-retry');
    const handled: number[] = [];
    let failures = 0;
    await consumer.subscribe(published, { durable, backoffMs: [60_000] }, async (e) => {
      if (e.data.n === 1 && failures++ === 0) throw new Error('first attempt fails');
      handled.push(e.data.n);
    });
    await producer.publish(published, { n: 1 });
    await waitFor('the failed first attempt', () => failures === 1);
    await producer.publish(published, { n: 2 });
    await waitFor('the second event', () => handled.includes(2));

    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.consumers.delete('EVENTS', consumerName(durable, published.subject));
      await healthUntil(consumer, 'health to fail', (h) => !h.ok);
      // The retry was due in a minute; the recreated consumer starts at the event still owed.
      await waitFor('the event that was waiting for its retry', () => handled.includes(1), 10_000);
    } finally {
      await nc.close();
    }
  }, 60_000);

  test('the EVENTS stream deleted: it is recreated with its limits, and the group consumes again', async () => {
    const [consumer, producer] = [await client('reader'), await client('identity')];
    const { published } = freshEvent();
    const seen: number[] = [];
    await consumer.subscribe(published, { durable: fresh('reader-sites') }, async (e) => {
      seen.push(e.data.n);
    });
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete('EVENTS');
      await healthUntil(consumer, 'health to fail', (h) => !h.ok);
      await healthUntil(consumer, 'health to recover', (h) => h.ok);
      expect((await jsm.streams.info('EVENTS')).config.duplicate_window).toBe(120_000_000_000);
      await producer.publish(published, { n: 7 });
      await waitFor('an event on the recreated stream', () => seen.includes(7), 10_000);
    } finally {
      await nc.close();
    }
  }, 60_000);

  test('a publisher that finds no EVENTS stream recreates it and its publish succeeds', async () => {
    const producer = await client('identity');
    const { published } = freshEvent();
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete('EVENTS');
      await expect(producer.publish(published, { n: 1 })).resolves.toMatchObject({ data: { n: 1 } });
      const stored = await jsm.streams.getMessage('EVENTS', { last_by_subj: published.subject });
      expect(stored?.json()).toMatchObject({ data: { n: 1 } });
    } finally {
      await nc.close();
    }
  });

  test('events published while the subscriber process was down are delivered when it subscribes again', async () => {
    const producer = await client('identity');
    const { published } = freshEvent();
    const durable = fresh('reader-down');
    const first = await client('reader');
    await first.subscribe(published, { durable }, async () => undefined);
    await first.close();

    await producer.publish(published, { n: 1 });
    await producer.publish(published, { n: 2 });

    const seen: number[] = [];
    const second = await client('reader');
    await second.subscribe(published, { durable }, async (e) => {
      seen.push(e.data.n);
    });
    await waitFor('both events', () => seen.length === 2);
    expect(seen).toEqual([1, 2]);
  });

  describe('BUS_STREAM_REPLICAS', () => {
    test('a single server refuses 3 replicas when creating a stream; an existing stream keeps its count', async () => {
      await client('first'); // creates the streams with the default, 1 replica
      // The stream exists: its replica count stays 1 (logged) and the client connects.
      const bus = await connectBus(nats.url, { service: 'x', logger: testLogger(), streamReplicas: 3 });
      open.push(bus);
      const nc = await connect({ servers: nats.url });
      try {
        const jsm = await jetstreamManager(nc);
        expect((await jsm.streams.info('EVENTS')).config.num_replicas).toBe(1);
        await jsm.streams.delete('EVENTS');
        await expect(
          connectBus(nats.url, { service: 'x', logger: testLogger(), streamReplicas: 3 }),
        ).rejects.toThrow(/replica|resources|cluster/i);
      } finally {
        await nc.close();
      }
    });
  });
});
