// Events go through the outbox: while the bus refuses every publish, newPost still succeeds and its
// `published` event is delivered (once) when the bus works again. identity's user.created arriving again
// for a user whose site exists announces site.created again under the same id, so a site whose event was
// lost gets it, and one whose event went out does not get a second.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { identity, publishing, type EventEnvelope } from '@murmur/contracts';
import type { Bus } from '@murmur/bus';
import { eventually } from '@murmur/testing';
import { recordPostEvents, settle, type PostEventLog } from './events.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let log: PostEventLog;
let busDown = false;
const sites: EventEnvelope<{ site: publishing.Site }>[] = [];

/** The shared bus, except that publish fails while `busDown`. */
function flakyBus(bus: Bus): Bus {
  return new Proxy(bus, {
    get(target, key) {
      if (key === 'publish' && busDown) return async () => Promise.reject(new Error('bus unavailable'));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

beforeAll(async () => {
  h = await startHarness({ gateway: false, wrapBus: flakyBus });
  log = await recordPostEvents(h.bus);
  await h.bus.subscribe(
    publishing.siteCreated,
    { durable: `test-${randomUUID().slice(0, 8)}` },
    async (e) => {
      sites.push(e);
    },
  );
  ada = await h.createUser('ada');
  await h.siteOf(ada.id);
});
afterAll(async () => {
  busDown = false;
  await log.stop();
  await h.stop();
});

describe('through the outbox', () => {
  it('newPost succeeds while the bus refuses publishes; the event arrives once the bus is back', async () => {
    busDown = true;
    const res = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'Offline', description: 'x' },
    ]);
    expect(res.fault).toBeUndefined();
    const id = res.value as number;
    await settle(1000);
    expect(log.of(id)).toEqual([]);

    busDown = false;
    await eventually(async () => (log.of(id).length > 0 ? true : undefined), 20_000);
    await settle(500);
    expect(log.of(id).map((e) => e.verb)).toEqual(['published']);
    expect(log.of(id)[0]!.envelope.data.title).toBe('Offline');
  }, 60_000);

  it('a redelivered user.created announces a site whose created event was lost, once', async () => {
    // A site stored without its event, as after a crash between the two writes.
    const now = new Date();
    await h.store.collection('sites').insertOne({
      _id: 900,
      userId: 900,
      username: 'lost',
      ownerName: '',
      host: null,
      isDefault: true,
      defaultOf: 900,
      createdAt: now,
      updatedAt: now,
      revision: 1,
    });
    const user = {
      id: 900,
      username: 'lost',
      email: 'lost@example.com',
      name: '',
      fullName: '',
      avatar: '',
      bio: '',
      createdAt: now.toISOString(),
    };
    await h.bus.publish(identity.userCreated, { user });
    const announced = await eventually(async () => sites.find((e) => e.data.site.id === 900), 10_000);
    expect(announced.data.site).toMatchObject({ id: 900, userId: 900, username: 'lost', isDefault: true });

    // Identity sends it again: the same event id, nothing new on the bus.
    await h.bus.publish(identity.userCreated, { user });
    await settle(1500);
    expect(sites.filter((e) => e.data.site.id === 900)).toHaveLength(1);
    expect(await h.store.collection('sites').countDocuments({ defaultOf: 900 })).toBe(1);
  }, 60_000);
});
