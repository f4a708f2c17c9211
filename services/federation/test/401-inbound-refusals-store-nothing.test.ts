// Every refusal of the inbox is a 401 and stores nothing: no signature, a signature by another key, a
// stale or future Date (and RFC 9421 created), a Digest (or Content-Digest) that is not the body's, a
// body changed after signing, and a key whose owner is not the activity's actor.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { ADA, startHarness, type Harness } from './harness.js';
import type { SendOptions } from './foreign-server.js';

let h: Harness;
let follow: Record<string, unknown>;

beforeAll(async () => {
  h = await startHarness();
  await h.post('published', { id: 5, userId: ADA.id, revision: 1 });
  const alice = h.foreign.actorUrl('alice');
  follow = { id: `${alice}#follows/1`, type: 'Follow', actor: alice, object: `${h.url}/ap/users/ada` };
});
afterAll(() => h.stop());

const HOUR = 3_600_000;
const cases: [string, SendOptions][] = [
  ['unsigned', { scheme: 'none' }],
  ['signed with a key that is not the actor’s', { wrongKey: true }],
  ['a Date 13 hours old', { date: new Date(Date.now() - 13 * HOUR) }],
  ['a Date 2 hours ahead', { date: new Date(Date.now() + 2 * HOUR) }],
  ['a Digest that is not the body’s', { wrongDigest: true }],
  ['a body changed after signing', { tamperBody: true }],
  ['RFC 9421 signed by another key', { scheme: 'rfc9421', wrongKey: true }],
  ['RFC 9421 created 13 hours ago', { scheme: 'rfc9421', date: new Date(Date.now() - 13 * HOUR) }],
  ['RFC 9421 with a Content-Digest that is not the body’s', { scheme: 'rfc9421', wrongDigest: true }],
  ['bob’s key for alice’s activity', { name: 'bob' }],
];

test.each(cases)('%s → 401, nothing stored', async (_name, options) => {
  const res = await h.foreign.send(`${h.url}/ap/inbox`, follow, options);
  expect(res.status).toBe(401);
  expect(JSON.parse(res.body)).toMatchObject({ error: expect.stringMatching(/^Signature refused: /) });
  expect(await h.count('followers')).toBe(0);
  expect(await h.count('inbox')).toBe(0);
  expect(h.foreign.received).toEqual([]);
});

test('after all of them the same Follow, signed right, is accepted', async () => {
  expect((await h.foreign.send(`${h.url}/ap/inbox`, follow)).status).toBe(202);
  expect(await h.count('followers')).toBe(1);
  await eventually(async () => (h.events.followerAdded.length === 1 ? true : undefined), 15_000);
});
