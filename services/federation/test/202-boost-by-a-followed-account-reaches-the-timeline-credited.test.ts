// A boost (Announce) by an account a local user follows, of a post on another server, becomes a post
// for the follower's timeline (evt.federation.post.received, which feeds shows): the boosted post's
// words, read from its own server, credited to the booster (the event's author) and naming the
// boosted post and its author (repostOf). A redelivery adds nothing; Undo(Announce) removes it; a
// boost by an account nobody here follows, or of a post that is not public, is not kept.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { resolveAccount } from '../src/domain/remote.js';
import { ADA, startHarness, type Harness } from './harness.js';

let h: Harness;
let alice: string;
let dave: string;
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const WAIT = 60_000;

beforeAll(async () => {
  h = await startHarness();
  alice = h.foreign.actorUrl('alice');
  dave = h.foreign.actorUrl('dave');
  const account = await resolveAccount(h.ctx, alice);
  await h.followEdge('created', ADA.id, account._id);
  await eventually(
    async () => (h.foreign.received.some((r) => r.activity.type === 'Follow') ? true : undefined),
    WAIT,
  );
  h.foreign.objects.set('/users/dave/statuses/1', {
    id: `${dave}/statuses/1`,
    type: 'Note',
    attributedTo: dave,
    to: [AS_PUBLIC],
    url: `${h.foreign.origin}/@dave/1`,
    content: '<p>Dave’s words</p>',
    published: '2026-11-30T10:00:00Z',
  });
  h.foreign.objects.set('/users/dave/statuses/2', {
    id: `${dave}/statuses/2`,
    type: 'Note',
    attributedTo: dave,
    to: [`${dave}/followers`],
    content: '<p>For followers only</p>',
  });
}, 120_000);
afterAll(() => h.stop());

const boost = (n: number, object: string, name = 'alice') => ({
  id: `${h.foreign.actorUrl(name)}/statuses/${100 + n}/activity`,
  type: 'Announce',
  actor: h.foreign.actorUrl(name),
  object,
  published: '2026-12-01T09:00:00Z',
  to: [AS_PUBLIC],
});

test('a followed account’s boost → a post for the timeline credited to the booster, naming the original', async () => {
  const res = await h.foreign.send(`${h.url}/ap/inbox`, boost(1, `${dave}/statuses/1`));
  expect(res.status).toBe(202);
  const [event] = await eventually(
    async () => (h.events.postReceived.length > 0 ? h.events.postReceived : undefined),
    WAIT,
  );
  expect(event!.data).toMatchObject({
    author: { handle: `alice@${h.foreign.host}`, actorId: alice },
    url: `${h.foreign.origin}/@dave/1`,
    contentHtml: '<p>Dave’s words</p>',
    publishedAt: expect.stringMatching(/^2026-12-01T09:00:00/),
    repostOf: {
      objectId: `${dave}/statuses/1`,
      url: `${h.foreign.origin}/@dave/1`,
      author: { handle: `dave@${h.foreign.host}`, name: 'Dave', actorId: dave },
    },
  });
  // Redelivered: nothing new.
  await h.foreign.send(`${h.url}/ap/inbox`, { ...boost(1, `${dave}/statuses/1`) });
  await new Promise((r) => setTimeout(r, 500));
  expect(h.events.postReceived).toHaveLength(1);
}, 120_000);

test('Undo(Announce) → the boost is deleted from the timelines', async () => {
  const res = await h.foreign.send(`${h.url}/ap/inbox`, {
    id: `${alice}#undo/101`,
    type: 'Undo',
    actor: alice,
    object: boost(1, `${dave}/statuses/1`),
  });
  expect(res.status).toBe(202);
  const gone = await eventually(async () => h.events.postDeleted[0], WAIT);
  expect(gone.data.repostOf?.objectId).toBe(`${dave}/statuses/1`);
}, 120_000);

test('a boost of a followers-only post, or by an account nobody here follows, is not kept', async () => {
  await h.foreign.send(`${h.url}/ap/inbox`, boost(2, `${dave}/statuses/2`));
  await h.foreign.send(`${h.url}/ap/inbox`, boost(3, `${dave}/statuses/1`, 'carol'), { name: 'carol' });
  await new Promise((r) => setTimeout(r, 1000));
  expect(h.events.postReceived).toHaveLength(1);
}, 120_000);
