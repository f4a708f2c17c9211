// FEDERATION_ENABLED=false: the server does not federate — discovery, actors and inboxes answer 404,
// posts are not delivered, remote accounts cannot be looked up (403).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { federation } from '@murmur/contracts';
import { ADA, AP, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { FEDERATION_ENABLED: 'false' } });
});
afterAll(() => h.stop());

test('discovery, actors, notes and inboxes are 404 with a message saying why', async () => {
  for (const path of [
    `/.well-known/webfinger?resource=acct:ada@${h.host}`,
    '/.well-known/nodeinfo',
    '/nodeinfo/2.1',
    '/ap/users/ada',
    '/ap/users/ada/outbox',
  ]) {
    const res = await h.get(path, AP);
    expect([path, res.statusCode]).toEqual([path, 404]);
    expect((res.json() as { error: string }).error).toBe('Federation is turned off on this server.');
  }
  const inbox = await h.foreign.send(`${h.url}/ap/inbox`, {
    id: `${h.foreign.origin}/follows/1`,
    type: 'Follow',
    actor: h.foreign.actorUrl('alice'),
    object: `${h.url}/ap/users/ada`,
  });
  expect(inbox.status).toBe(404);
});

test('a post is not delivered and no account is looked up', async () => {
  await h.post('published', { id: 1, userId: ADA.id, revision: 1 });
  expect(await h.jobsOf('federation.post.distribute')).toEqual([]);
  await expect(
    h.bus.request(federation.accountResolve, { target: `alice@${h.foreign.host}` }),
  ).rejects.toMatchObject({
    status: 403,
  });
});
