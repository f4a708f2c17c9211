// A follow made while the bus refuses every publish still answers 200, and its evt.feeds.follow.created
// arrives once the bus is back — once (push's "new follower" depends on it); following again announces
// nothing. The event is staged in feeds' outbox with the edge (docs/platform.md, "outbox").
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { feeds, type EventEnvelope } from '@murmur/contracts';
import type { Bus } from '@murmur/bus';
import { eventually, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let busDown = true;
const seen: Array<EventEnvelope<{ followerId: number; followeeId: number }>> = [];

/** The feeds service's view of the bus: publishes fail while `busDown`, as when NATS is unreachable. */
function flaky(bus: Bus): Bus {
  return new Proxy(bus, {
    get(target, name, receiver) {
      if (name === 'publish')
        return async (...args: Parameters<Bus['publish']>) => {
          if (busDown) throw new Error('nats: connection refused (test)');
          return target.publish(...args);
        };
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  h = await startHarness({ gateway: false, wrapBus: flaky });
  ada = await h.createUser('ada');
  await h.createUser('bob');
  await h.bus.listen(feeds.followCreated, async (e) => void seen.push(e));
});
afterAll(() => h?.stop());

test('a follow during a bus outage answers 200 and is announced once the bus is back, once', async () => {
  const first = await h.request('POST', '/users/follow', { token: ada.token, body: { username: 'bob' } });
  expect(first.statusCode).toBe(200);
  const again = await h.request('POST', '/users/follow', { token: ada.token, body: { username: 'bob' } });
  expect(again.statusCode).toBe(200);
  await new Promise((r) => setTimeout(r, 600));
  expect(seen).toHaveLength(0);

  busDown = false;
  await eventually(async () => (seen.length > 0 ? true : undefined), 15_000);
  await new Promise((r) => setTimeout(r, 1000));
  expect(seen).toHaveLength(1);
  expect(seen[0]!.data).toMatchObject({ followerId: ada.id, followeeUsername: 'bob' });
});
