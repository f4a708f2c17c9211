// Identity's announcements are recorded in its outbox before they travel: while the bus refuses every
// publish, account creation and token revocation still answer as usual, and every announcement arrives
// once the bus is back (a user created during an outage still gets a site).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { identity, type EventEnvelope } from '@murmur/contracts';
import type { Bus } from '@murmur/bus';
import { eventually, startIdentity, type Harness } from './harness.js';

let h: Harness;
let busDown = true;
const seen: Array<EventEnvelope<unknown>> = [];

/** The service's view of the bus: publishes fail while `busDown`, as when NATS is unreachable. */
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
  h = await startIdentity({}, { wrapBus: flaky });
  await h.bus.listen(identity.userCreated, async (e) => void seen.push(e));
  await h.bus.listen(identity.tokenRevoked, async (e) => void seen.push(e));
});
afterAll(() => h.stop());

test('creation and revocation answer while the bus is down; their events arrive once it is back', async () => {
  const res = await h.admin('POST', '/admin/users', { username: 'lin', email: 'lin@example.com' });
  expect(res.statusCode).toBe(201);
  const revoke = await h.admin('POST', '/admin/tokens/revoke', { token: res.json().token });
  expect(revoke.statusCode).toBe(200);
  await new Promise((r) => setTimeout(r, 600));
  expect(seen).toHaveLength(0);

  busDown = false;
  const types = await eventually(async () => {
    const t = seen.map((e) => e.type);
    return t.includes('identity.user.created') && t.includes('identity.token.revoked') ? t : undefined;
  }, 60_000);
  expect(types.filter((t) => t === 'identity.user.created')).toHaveLength(1);
  expect(types.filter((t) => t === 'identity.token.revoked')).toHaveLength(1);
});
