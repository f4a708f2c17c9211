// The bus contract over a real nats-server with JetStream, started for this file on a free port, plus what only
// the NATS adapter has: the stream and consumer layout operators rely on, and server lists.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { AckPolicy, DeliverPolicy, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { type Bus, type DeadLetter } from '@murmur/bus';
import { connectBus } from '@murmur/runtime';
import {
  freePort,
  testLogger,
  describeWithNats,
  startNatsServer,
  type NatsServerHandle,
} from '@murmur/testing';
import { defineBusContract } from '../../bus/test/contract.js';
import { fresh, freshEvent, waitFor } from '../../bus/test/helpers.js';

describeWithNats('nats adapter', () => {
  let server: NatsServerHandle;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  // The contract's "a new group starts with new events" is about an established store: this file's server
  // and its stream are seconds old, which `youngStoreMs` (tested below) would otherwise count as young.
  defineBusContract((service) => connectBus(server.url, { service, logger: testLogger(), youngStoreMs: 0 }));

  describe('a group subscribed for the first time to a young event store', () => {
    test('starts with everything the store holds: events published before a late service first subscribed', async () => {
      const pub = await connectBus(server.url, { service: 'identity', logger: testLogger() });
      const late = await connectBus(server.url, { service: 'publishing', logger: testLogger() });
      try {
        const { published } = freshEvent();
        const early = await pub.publish(published, { n: 1 });
        const seen: Array<{ id: string; n: number }> = [];
        await late.subscribe(published, { durable: fresh('late-group') }, async (event) => {
          seen.push({ id: event.id, n: (event.data as { n: number }).n });
        });
        const after = await pub.publish(published, { n: 2 });
        await waitFor('both events', () => seen.length >= 2);
        expect(seen).toEqual([
          { id: early.id, n: 1 },
          { id: after.id, n: 2 },
        ]);
      } finally {
        await pub.close();
        await late.close();
      }
    });

    test('on a store older than youngStoreMs it starts with new events only', async () => {
      const pub = await connectBus(server.url, { service: 'identity', logger: testLogger() });
      const late = await connectBus(server.url, {
        service: 'publishing',
        logger: testLogger(),
        youngStoreMs: 1,
      });
      try {
        const { published } = freshEvent();
        await pub.publish(published, { n: 1 });
        const seen: number[] = [];
        await late.subscribe(published, { durable: fresh('late-group') }, async (event) => {
          seen.push((event.data as { n: number }).n);
        });
        await pub.publish(published, { n: 2 });
        await waitFor('the later event', () => seen.length >= 1);
        await new Promise((r) => setTimeout(r, 100));
        expect(seen).toEqual([2]);
      } finally {
        await pub.close();
        await late.close();
      }
    });
  });

  describe('JetStream layout', () => {
    let nc: NatsConnection;
    let jsm: JetStreamManager;
    let bus: Bus;
    beforeAll(async () => {
      bus = await connectBus(server.url, { service: 'layout', logger: testLogger(), youngStoreMs: 0 });
      nc = await connect({ servers: server.url });
      jsm = await jetstreamManager(nc);
    });
    afterAll(async () => {
      await bus?.close();
      await nc?.close();
    });

    test('connecting (again) keeps one EVENTS stream on evt.> and one DEADLETTER stream on dlq.>', async () => {
      await (await connectBus(server.url, { service: 'layout', logger: testLogger() })).close();
      const events = await jsm.streams.info('EVENTS');
      expect(events.config).toMatchObject({
        subjects: ['evt.>'],
        max_age: nanos(7 * 24 * 3600_000),
        duplicate_window: nanos(120_000),
      });
      expect((await jsm.streams.info('DEADLETTER')).config.subjects).toEqual(['dlq.>']);
    });

    test('a group is one durable pull consumer per subject, and its dead letters stay in DEADLETTER', async () => {
      const { published } = freshEvent();
      const other = freshEvent().published;
      const durable = fresh('reader-posts');
      const letters: DeadLetter[] = [];
      await bus.onDeadLetter(durable, (letter) => letters.push(letter));
      const failing = async () => {
        throw new Error('always');
      };
      await bus.subscribe(published, { durable, maxDeliver: 2, backoffMs: [10] }, failing);
      await bus.subscribe(other, { durable }, failing);

      const consumers = [];
      for await (const info of jsm.consumers.list('EVENTS')) {
        if (info.config.durable_name?.startsWith(`${durable}-`)) consumers.push(info.config);
      }
      expect(consumers.map((c) => c.filter_subject).sort()).toEqual(
        [published.subject, other.subject].sort(),
      );
      expect(consumers.find((c) => c.filter_subject === published.subject)).toMatchObject({
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.New,
        max_deliver: 2,
      });

      const event = await bus.publish(published, { n: 1 });
      await waitFor('the dead letter', () => letters.length === 1);
      const stored = await jsm.streams.getMessage('DEADLETTER', { last_by_subj: `dlq.${durable}` });
      expect(stored?.json()).toMatchObject({ durable, deliveries: 2, envelope: { id: event.id } });
    });

    test('BUS_URL may list several servers, comma-separated', async () => {
      const down = `nats://127.0.0.1:${await freePort()}`;
      const listed = await connectBus(`${down},${server.url}`, { service: 'layout', logger: testLogger() });
      await expect(listed.ping()).resolves.toBeUndefined();
      await listed.close();
    });
  });
});
