// Remote documents and inboxes are reached through the safe fetcher: an account or an inbox at
// 127.0.0.2 (not allowed here, unlike 127.0.0.1) is refused before anything connects.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { federation } from '@murmur/contracts';
import { eventually } from '@murmur/testing';
import { ADA, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test('looking up an account at 127.0.0.2 → 404, the guard’s reason in the message', async () => {
  await expect(
    h.bus.request(federation.accountResolve, { target: 'http://127.0.0.2/users/eve' }),
  ).rejects.toMatchObject({
    status: 404,
  });
  await expect(h.bus.request(federation.accountResolve, { target: 'eve@127.0.0.2' })).rejects.toMatchObject({
    status: 404,
  });
});

test('a signed request whose key lives at 127.0.0.2 → 401 (the key cannot be fetched)', async () => {
  const res = await h.foreign.send(`${h.url}/ap/inbox`, {
    id: 'http://127.0.0.2/users/eve#follows/1',
    type: 'Follow',
    actor: 'http://127.0.0.2/users/eve',
    object: `${h.url}/ap/users/ada`,
  });
  // The foreign server signs with its own key id, whose owner is not the activity's actor.
  expect(res.status).toBe(401);
});

test('a delivery to an inbox at 127.0.0.2 is dropped, not retried', async () => {
  await h.store.collection('actors').insertOne({
    _id: 2 ** 48 + 5,
    actorId: 'http://127.0.0.2/users/eve',
    handle: 'eve@127.0.0.2',
    name: 'Eve',
    url: 'http://127.0.0.2/users/eve',
    icon: '',
    inbox: 'http://127.0.0.2/users/eve/inbox',
    keyId: 'http://127.0.0.2/users/eve#main-key',
    publicKeyPem: 'unused',
    fetchedAt: new Date(),
  });
  await h.store.collection('followers').insertOne({
    _id: `${ADA.id} ${2 ** 48 + 5}`,
    userId: ADA.id,
    actor: 2 ** 48 + 5,
    followId: 'x',
    createdAt: new Date(),
  });
  await h.post('published', { id: 31, userId: ADA.id, revision: 1 });
  const job = await eventually(async () => {
    const [j] = await h.jobsOf('federation.activity.deliver');
    return j?.status === 'done' ? j : undefined;
  }, 60_000);
  expect(job.attempts).toBe(1);
  const [record] = await h.store.collection('deliveries').find({});
  expect(record).toMatchObject({ dropped: ['http://127.0.0.2/users/eve/inbox'], done: [] });
});
