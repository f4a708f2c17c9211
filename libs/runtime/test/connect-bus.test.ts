// connectBus: one URL chooses the broker.
import { afterEach, describe, expect, test } from '@jest/globals';
import { connectBus } from '../src/connect-bus.js';
import { BusNoResponderError, type Bus } from '@murmur/bus';
import { testLogger } from '@murmur/testing';
import { freshEvent, freshRequest } from '../../bus/test/helpers.js';

const opened: Bus[] = [];
async function open(url: string): Promise<Bus> {
  const bus = await connectBus(url, { service: 'contract', logger: testLogger() });
  opened.push(bus);
  return bus;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((bus) => bus.close()));
});

describe('connectBus', () => {
  test('every memory: client in a process talks to the same broker', async () => {
    const [server, caller] = [await open('memory:'), await open('memory:')];
    expect(caller.kind).toBe('memory');
    const { get } = freshRequest();
    await server.handle(get, async ({ id }) => ({ id, label: 'shared' }));
    await expect(caller.request(get, { id: 1 })).resolves.toEqual({ id: 1, label: 'shared' });
  });

  test('memory:<name> is a broker of its own', async () => {
    const [server, sameName, other] = [
      await open('memory:alpha'),
      await open('memory:alpha'),
      await open('memory:beta'),
    ];
    const { get } = freshRequest();
    await server.handle(get, async ({ id }) => ({ id, label: 'alpha' }));
    await expect(sameName.request(get, { id: 1 })).resolves.toEqual({ id: 1, label: 'alpha' });
    await expect(other.request(get, { id: 1 })).rejects.toBeInstanceOf(BusNoResponderError);
    await expect((await open('memory:')).request(get, { id: 1 })).rejects.toBeInstanceOf(BusNoResponderError);
  });

  test('an unknown scheme is refused without echoing the rest of the URL', async () => {
    const err = (await open('amqp://user:hunter2@mq:5672').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/unsupported bus URL scheme "amqp:"/);
    expect(err.message).not.toContain('hunter2');
  });

  test('subscribe refuses retry settings no broker could honour', async () => {
    const bus = await open('memory:gamma');
    const { published } = freshEvent();
    const handler = async () => undefined;
    await expect(bus.subscribe(published, { durable: 'g', maxDeliver: 0 }, handler)).rejects.toThrow(
      /maxDeliver/,
    );
    await expect(bus.subscribe(published, { durable: 'g', backoffMs: [] }, handler)).rejects.toThrow(
      /backoffMs/,
    );
  });
});
