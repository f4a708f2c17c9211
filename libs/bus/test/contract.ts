// The bus contract: what every adapter must do, run against memory and against a real nats-server. Services are
// tested on memory; this suite is why those tests still hold on NATS.
import { afterEach, describe, expect, test } from '@jest/globals';
import type { EventEnvelope } from '@murmur/contracts';
import { AppError } from '@murmur/core';
import {
  BusNoResponderError,
  BusTimeoutError,
  BusValidationError,
  type Bus,
  type DeadLetter,
  type EventContext,
  type Headers,
} from '../src/port.js';
import { fresh, freshEvent, freshRequest, sleep, waitFor } from './helpers.js';

/** Connects a new client (one "process") to the broker under test. */
export type ConnectClient = (service: string) => Promise<Bus>;

type Seen<D> = Array<{ event: EventEnvelope<D>; ctx: EventContext; at: number }>;

export function defineBusContract(connect: ConnectClient): void {
  const open: Bus[] = [];
  const client = async (service: string) => {
    const bus = await connect(service);
    open.push(bus);
    return bus;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });

  describe('request/reply', () => {
    test('the handler gets the parsed payload and the headers; the requester gets the validated response', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      const seen: Array<{ payload: unknown; headers: Headers }> = [];
      await contract.handle(get, async (payload, ctx) => {
        seen.push({ payload, headers: ctx.headers });
        const response = { id: payload.id, label: `thing ${payload.id}`, internal: 'not for callers' };
        return response;
      });

      const headers = { 'X-Request-Id': 'req-123', 'x-trace': 'abc' };
      await expect(caller.request(get, { id: 7 }, { headers })).resolves.toEqual({ id: 7, label: 'thing 7' });
      await caller.request(get, { id: 8 });

      expect(seen.map((s) => s.payload)).toEqual([{ id: 7 }, { id: 8 }]);
      expect(seen[0]!.headers).toMatchObject({ 'x-request-id': 'req-123', 'x-trace': 'abc' });
      expect(seen[1]!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    test('an invalid payload is refused before sending: BusValidationError, the handler never sees it', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      let calls = 0;
      await contract.handle(get, async ({ id }) => ({ id, label: String(calls++) }));

      const wrong = { id: 'seven' } as unknown as { id: number };
      await expect(caller.request(get, wrong)).rejects.toBeInstanceOf(BusValidationError);
      await expect(caller.request(get, { id: 1, note: 'x'.repeat(1024 * 1024) })).rejects.toThrow(/exceeds/);
      await caller.request(get, { id: 1 }); // sent after the refused ones: had they gone out, they came first
      expect(calls).toBe(1);
    });

    test('the responder answers an invalid payload with 400 naming the field, without calling the handler', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get, unchecked } = freshRequest();
      let calls = 0;
      await contract.handle(get, async ({ id }) => ({ id, label: String(calls++) }));

      const err = await caller.request(unchecked, { id: 'seven' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_request', param: 'id' });
      expect(calls).toBe(0);
    });

    test('a response that fails its schema becomes a 500 at the responder', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      await contract.handle(
        get,
        async () => ({ id: 'not a number' }) as unknown as { id: number; label: string },
      );
      const err = await caller.request(get, { id: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 500, code: 'internal_error', message: 'Internal error' });
    });

    test("a reply that fails the requester's schema (a responder on another version) is BusValidationError", async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get, unchecked } = freshRequest();
      await contract.handle(unchecked, async () => ({ id: 'not a number' }));
      await expect(caller.request(get, { id: 1 })).rejects.toThrow(BusValidationError);
    });

    test("a handler's AppError reaches the requester with status, code, message and param", async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      await contract.handle(get, async () => {
        throw new AppError(404, 'no_such_thing', 'No such thing.', { param: 'id' });
      });
      const err = await caller.request(get, { id: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({
        status: 404,
        code: 'no_such_thing',
        message: 'No such thing.',
        param: 'id',
      });
    });

    test('any other exception becomes 500 Internal error, with nothing of the cause', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      await contract.handle(get, async () => {
        throw new Error('connection string mongodb://admin:secret@db');
      });
      const err = await caller.request(get, { id: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 500, code: 'internal_error', message: 'Internal error' });
      expect(JSON.stringify(err) + String((err as Error).stack)).not.toContain('secret');
    });

    test('a slow handler makes the request fail with BusTimeoutError after timeoutMs', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      await contract.handle(get, async ({ id }) => {
        await sleep(400);
        return { id, label: 'late' };
      });
      const started = Date.now();
      await expect(caller.request(get, { id: 1 }, { timeoutMs: 60 })).rejects.toBeInstanceOf(BusTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(55);
      expect(Date.now() - started).toBeLessThan(350);
    });

    test('nobody handling the subject (never, or no longer) is BusNoResponderError, without waiting for the timeout', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      const started = Date.now();
      await expect(caller.request(get, { id: 1 }, { timeoutMs: 3000 })).rejects.toBeInstanceOf(
        BusNoResponderError,
      );
      expect(Date.now() - started).toBeLessThan(1000);

      const sub = await contract.handle(get, async ({ id }) => ({ id, label: 'here' }));
      await expect(caller.request(get, { id: 1 })).resolves.toEqual({ id: 1, label: 'here' });
      await sub.unsubscribe();
      await expect(caller.request(get, { id: 1 }, { timeoutMs: 3000 })).rejects.toBeInstanceOf(
        BusNoResponderError,
      );
    });

    test("the owner's replicas form one queue group: each request is answered once, the load is shared", async () => {
      const [one, two, caller] = [await client('contract'), await client('contract'), await client('caller')];
      const { get } = freshRequest();
      const answeredBy: string[] = [];
      for (const [name, bus] of [
        ['one', one],
        ['two', two],
      ] as const) {
        await bus.handle(get, async ({ id }) => {
          answeredBy.push(name);
          return { id, label: name };
        });
      }
      const replies = await Promise.all(Array.from({ length: 20 }, (_, id) => caller.request(get, { id })));
      expect(replies.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, id) => id));
      expect(answeredBy).toHaveLength(20);
      expect(answeredBy.filter((n) => n === 'one').length).toBeGreaterThan(0);
      expect(answeredBy.filter((n) => n === 'two').length).toBeGreaterThan(0);
    });

    test('close lets a running handler answer before the client goes away', async () => {
      const [contract, caller] = [await client('contract'), await client('caller')];
      const { get } = freshRequest();
      let started = false;
      await contract.handle(get, async ({ id }) => {
        started = true;
        await sleep(150);
        return { id, label: 'finished' };
      });
      const reply = caller.request(get, { id: 3 });
      await waitFor('the handler to start', () => started);
      await contract.close();
      await expect(reply).resolves.toEqual({ id: 3, label: 'finished' });
    });
  });

  describe('durable events', () => {
    function record<D>(seen: Seen<D>, fail?: (event: EventEnvelope<D>, ctx: EventContext) => boolean) {
      return async (event: EventEnvelope<D>, ctx: EventContext) => {
        seen.push({ event, ctx, at: Date.now() });
        if (fail?.(event, ctx)) throw new Error(`attempt ${ctx.deliveryCount} failed`);
      };
    }

    test('every group receives each event once, in the envelope, with the publisher’s headers', async () => {
      const [pub, reader, feeds] = [
        await client('publishing'),
        await client('reader'),
        await client('feeds'),
      ];
      const { published } = freshEvent();
      const [seenA, seenB]: [Seen<{ n: number }>, Seen<{ n: number }>] = [[], []];
      await reader.subscribe(published, { durable: fresh('reader-posts') }, record(seenA));
      await feeds.subscribe(published, { durable: fresh('feeds-posts') }, record(seenB));

      const first = await pub.publish(published, { n: 1 }, { headers: { 'x-request-id': 'rid-1' } });
      const second = await pub.publish(published, { n: 2 }, { id: 'chosen-id' });
      expect(first).toMatchObject({ type: published.type, producer: 'contract', data: { n: 1 } });
      expect(new Date(first.occurredAt).toISOString()).toBe(first.occurredAt);
      expect(second.id).toBe('chosen-id');

      await waitFor('both groups to get both events', () => seenA.length >= 2 && seenB.length >= 2);
      await sleep(100); // and nothing more arrives
      for (const seen of [seenA, seenB]) {
        expect(seen.map((s) => s.event).sort((a, b) => a.data.n - b.data.n)).toEqual([first, second]);
        expect(seen.map((s) => s.ctx.deliveryCount)).toEqual([1, 1]);
        expect(seen.find((s) => s.event.id === first.id)!.ctx.headers['x-request-id']).toBe('rid-1');
        expect(seen.find((s) => s.event.id === second.id)!.ctx.headers['x-request-id']).toBeTruthy();
      }
    });

    test('members of one group share the work: each event is handled by one of them', async () => {
      const [pub, one, two] = [await client('publishing'), await client('reader'), await client('reader')];
      const { published } = freshEvent();
      const durable = fresh('reader-posts');
      const byMember: Record<string, number[]> = { one: [], two: [] };
      for (const [name, bus] of [
        ['one', one],
        ['two', two],
      ] as const) {
        await bus.subscribe(published, { durable }, async (event) => {
          byMember[name]!.push(event.data.n);
          await sleep(5);
        });
      }
      for (let n = 0; n < 20; n++) await pub.publish(published, { n });

      await waitFor('20 deliveries', () => byMember.one!.length + byMember.two!.length >= 20);
      await sleep(100);
      const all = [...byMember.one!, ...byMember.two!].sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: 20 }, (_, n) => n));
      expect(byMember.one!.length).toBeGreaterThan(0);
      expect(byMember.two!.length).toBeGreaterThan(0);
    });

    test('a failing handler gets the event again after the backoff until it succeeds (at least once)', async () => {
      const [pub, reader] = [await client('publishing'), await client('reader')];
      const { published } = freshEvent();
      const seen: Seen<{ n: number }> = [];
      const durable = fresh('reader-posts');
      await reader.subscribe(
        published,
        { durable, backoffMs: [40, 80] },
        record(seen, (_, ctx) => ctx.deliveryCount < 3),
      );

      const event = await pub.publish(published, { n: 1 });
      await waitFor('the third delivery', () => seen.length >= 3);
      await sleep(150);
      expect(seen.map((s) => s.ctx.deliveryCount)).toEqual([1, 2, 3]);
      expect(seen.every((s) => s.event.id === event.id)).toBe(true);
      expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(35);
      expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(75);
    });

    test('after maxDeliver failed attempts the event is dead-lettered and not delivered again', async () => {
      const [pub, reader, operator] = [
        await client('publishing'),
        await client('reader'),
        await client('operator'),
      ];
      const { published } = freshEvent();
      const durable = fresh('reader-posts');
      const letters: DeadLetter[] = [];
      await operator.onDeadLetter(durable, (letter) => letters.push(letter));
      const seen: Seen<{ n: number }> = [];
      await reader.subscribe(
        published,
        { durable, maxDeliver: 3, backoffMs: [20] },
        record(seen, () => true),
      );

      const event = await pub.publish(published, { n: 1 });
      await waitFor('the dead letter', () => letters.length >= 1);
      await sleep(150);
      expect(seen.map((s) => s.ctx.deliveryCount)).toEqual([1, 2, 3]);
      expect(letters).toEqual([
        { durable, subject: published.subject, envelope: event, deliveries: 3, error: 'attempt 3 failed' },
      ]);
    });

    test('an event whose data fails the schema is retried and dead-lettered without reaching the handler', async () => {
      const [pub, reader] = [await client('publishing'), await client('reader')];
      const { published, unchecked } = freshEvent();
      const durable = fresh('reader-posts');
      const letters: DeadLetter[] = [];
      await reader.onDeadLetter(durable, (letter) => letters.push(letter));
      const seen: Seen<{ n: number }> = [];
      await reader.subscribe(published, { durable, maxDeliver: 2, backoffMs: [20] }, record(seen));

      const event = await pub.publish(unchecked, { n: 'one' });
      await waitFor('the dead letter', () => letters.length >= 1);
      expect(seen).toHaveLength(0);
      expect(letters[0]).toMatchObject({
        durable,
        deliveries: 2,
        envelope: { id: event.id, data: { n: 'one' } },
      });
      expect(letters[0]!.error).toMatch(/data\.n/);
    });

    test('a group keeps its position while no member is connected and catches up when one subscribes', async () => {
      const pub = await client('publishing');
      const { published } = freshEvent();
      const durable = fresh('reader-posts');
      const early = await client('reader');
      const earlySeen: Seen<{ n: number }> = [];
      const sub = await early.subscribe(published, { durable }, record(earlySeen));
      await pub.publish(published, { n: 1 });
      await waitFor('the first event', () => earlySeen.length === 1);
      await sub.unsubscribe();
      await early.close();

      const missed = [await pub.publish(published, { n: 2 }), await pub.publish(published, { n: 3 })];
      const late = await client('reader');
      const lateSeen: Seen<{ n: number }> = [];
      await late.subscribe(published, { durable }, record(lateSeen));
      await waitFor('the events published meanwhile', () => lateSeen.length >= 2);
      await sleep(100);
      expect(lateSeen.map((s) => s.event).sort((a, b) => a.data.n - b.data.n)).toEqual(missed);
      expect(earlySeen).toHaveLength(1);
    });

    test('a new group starts with the events published after it was created', async () => {
      const [pub, reader] = [await client('publishing'), await client('reader')];
      const { published } = freshEvent();
      await pub.publish(published, { n: 1 });
      const seen: Seen<{ n: number }> = [];
      await reader.subscribe(published, { durable: fresh('reader-posts') }, record(seen));
      const after = await pub.publish(published, { n: 2 });
      await waitFor('the later event', () => seen.length >= 1);
      await sleep(100);
      expect(seen.map((s) => s.event)).toEqual([after]);
    });

    test('publishing the same event id twice stores it once', async () => {
      const [pub, reader] = [await client('publishing'), await client('reader')];
      const { published } = freshEvent();
      const seen: Seen<{ n: number }> = [];
      await reader.subscribe(published, { durable: fresh('reader-posts') }, record(seen));
      const id = fresh('event-');
      await pub.publish(published, { n: 1 }, { id });
      await pub.publish(published, { n: 1 }, { id });
      await pub.publish(published, { n: 2 });
      await waitFor('two events', () => seen.length >= 2);
      await sleep(100);
      expect(seen.map((s) => s.event.data.n).sort()).toEqual([1, 2]);
    });

    test('the same event id from two clients (an outbox relay in another replica) is stored once, with the given occurredAt', async () => {
      const [a, b, reader] = [await client('publishing'), await client('publishing'), await client('reader')];
      const { published } = freshEvent();
      const seen: Seen<{ n: number }> = [];
      await reader.subscribe(published, { durable: fresh('reader-posts') }, record(seen));
      const id = fresh('event-');
      const occurredAt = '2026-01-02T03:04:05.678Z';
      const first = await a.publish(published, { n: 1 }, { id, occurredAt });
      expect(first).toMatchObject({ id, occurredAt });
      await b.publish(published, { n: 1 }, { id, occurredAt });
      await a.publish(published, { n: 2 });
      await waitFor('two events', () => seen.length >= 2);
      await sleep(100);
      expect(seen.map((s) => s.event.data.n).sort()).toEqual([1, 2]);
      expect(seen.find((s) => s.event.id === id)?.event.occurredAt).toBe(occurredAt);
    });

    test('close waits for a running handler, which acknowledges: the group does not get the event again', async () => {
      const [pub, first] = [await client('publishing'), await client('reader')];
      const { published } = freshEvent();
      const durable = fresh('reader-posts');
      let phase: 'idle' | 'running' | 'done' = 'idle';
      await first.subscribe(published, { durable }, async () => {
        phase = 'running';
        await sleep(150);
        phase = 'done';
      });
      await pub.publish(published, { n: 1 });
      await waitFor('the handler to start', () => phase === 'running');
      await first.close();
      expect(phase).toBe('done');

      const seen: Seen<{ n: number }> = [];
      await (await client('reader')).subscribe(published, { durable }, record(seen));
      await sleep(200);
      expect(seen).toHaveLength(0);
    });

    test('an invalid event is refused before publishing and reaches nobody', async () => {
      const [pub, reader] = [await client('publishing'), await client('reader')];
      const { published } = freshEvent();
      const [durableSeen, listenSeen]: [Seen<{ n: number }>, Seen<{ n: number }>] = [[], []];
      await reader.subscribe(published, { durable: fresh('reader-posts') }, record(durableSeen));
      await reader.listen(published, record(listenSeen));

      const wrong = { n: 1.5 } as { n: number };
      await expect(pub.publish(published, wrong)).rejects.toBeInstanceOf(BusValidationError);
      await expect(pub.publish(published, { n: 2, note: 'x'.repeat(1024 * 1024) })).rejects.toThrow(
        /exceeds/,
      );
      await pub.publish(published, { n: 3 });
      await waitFor('the valid event', () => durableSeen.length >= 1 && listenSeen.length >= 1);
      await sleep(100);
      expect(durableSeen.map((s) => s.event.data.n)).toEqual([3]);
      expect(listenSeen.map((s) => s.event.data.n)).toEqual([3]);
    });
  });

  describe('listen', () => {
    test('every live listener gets each event once, and a failing listener is not retried', async () => {
      const [pub, one, two] = [await client('publishing'), await client('reader'), await client('feeds')];
      const { published } = freshEvent();
      const [seenOne, seenTwo]: [Seen<{ n: number }>, Seen<{ n: number }>] = [[], []];
      await one.listen(published, async (event, ctx) => {
        seenOne.push({ event, ctx, at: Date.now() });
      });
      await two.listen(published, async (event, ctx) => {
        seenTwo.push({ event, ctx, at: Date.now() });
        throw new Error('listener failure');
      });

      const events = [await pub.publish(published, { n: 1 }), await pub.publish(published, { n: 2 })];
      await waitFor('both listeners to get both events', () => seenOne.length >= 2 && seenTwo.length >= 2);
      await sleep(100);
      for (const seen of [seenOne, seenTwo]) {
        expect(seen.map((s) => s.event).sort((a, b) => a.data.n - b.data.n)).toEqual(events);
        expect(seen.every((s) => s.ctx.deliveryCount === 1 && !!s.ctx.headers['x-request-id'])).toBe(true);
      }
    });

    test('a listener that stopped gets nothing more', async () => {
      const [pub, reader] = [await client('publishing'), await client('reader')];
      const { published } = freshEvent();
      const seen: number[] = [];
      const sub = await reader.listen(published, async (event) => void seen.push(event.data.n));
      await pub.publish(published, { n: 1 });
      await waitFor('the first event', () => seen.length === 1);
      await sub.unsubscribe();
      await pub.publish(published, { n: 2 });
      await sleep(100);
      expect(seen).toEqual([1]);
    });
  });

  describe('lifecycle', () => {
    test('ping answers while connected; after close every operation is refused', async () => {
      const bus = await connect('contract');
      const { published } = freshEvent();
      await expect(bus.ping()).resolves.toBeUndefined();
      await bus.close();
      await bus.close(); // idempotent
      await expect(bus.ping()).rejects.toThrow(/closed/);
      await expect(bus.publish(published, { n: 1 })).rejects.toThrow(/closed/);
    });

    test('health is ok while connected with groups in place, and names the problem after close', async () => {
      const bus = await connect('contract');
      const { published } = freshEvent();
      await bus.subscribe(published, { durable: fresh('reader-health') }, async () => undefined);
      await expect(bus.health()).resolves.toEqual({ ok: true, problems: [] });
      await bus.close();
      await expect(bus.health()).resolves.toEqual({ ok: false, problems: ['bus is closed'] });
    });

    test('subscribe refuses a durable name that cannot be a subject word', async () => {
      const bus = await client('contract');
      const { published } = freshEvent();
      await expect(
        bus.subscribe(published, { durable: 'Not.Valid' }, async () => undefined),
      ).rejects.toThrow();
    });
  });
}
