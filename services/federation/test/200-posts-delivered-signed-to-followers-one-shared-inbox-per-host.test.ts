// A local user's public post, its edit and its deletion reach every follower on another server as a
// signed Create, Update and Delete — once per host at its shared inbox, or at each follower's own
// inbox when the host has none — and the foreign server verifies each signature.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { ADA, startHarness, type Harness } from './harness.js';

let h: Harness;
let ada: string;
const WAIT = 15_000;

beforeAll(async () => {
  h = await startHarness();
  ada = `${h.url}/ap/users/ada`;
  for (const name of ['alice', 'bob', 'carol']) {
    const actor = h.foreign.actorUrl(name);
    const res = await h.foreign.send(
      `${ada}/inbox`,
      { id: `${actor}#follows/1`, type: 'Follow', actor, object: ada },
      { name },
    );
    expect(res.status).toBe(202);
  }
  await eventually(
    async () =>
      h.foreign.received.filter((r) => r.activity.type === 'Accept').length === 3 ? true : undefined,
    WAIT,
  );
});
afterAll(() => h.stop());

const ofType = (type: string) => h.foreign.received.filter((r) => r.activity.type === type);

test('a new post is one signed Create at the host’s shared inbox, with the note', async () => {
  await h.post('published', { id: 11, userId: ADA.id, contentHtml: '<p>First post</p>', revision: 1 });
  const [create] = await eventually(
    async () => (ofType('Create').length > 0 ? ofType('Create') : undefined),
    WAIT,
  );
  await new Promise((r) => setTimeout(r, 300));
  expect(ofType('Create')).toHaveLength(1);
  expect(create!.inbox).toBe(`${h.foreign.origin}/inbox`);
  expect(create!.keyId).toBe(`${ada}#main-key`);
  expect(create!.activity).toMatchObject({
    id: `${h.url}/ap/notes/11/activity`,
    actor: ada,
    object: { id: `${h.url}/ap/notes/11`, type: 'Note', content: '<p>First post</p>', attributedTo: ada },
  });
});

test('an edit is an Update of the note, a deletion a Delete of it', async () => {
  await h.post('updated', { id: 11, userId: ADA.id, contentHtml: '<p>First post, edited</p>', revision: 2 });
  const update = await eventually(async () => ofType('Update')[0], WAIT);
  expect(update.activity).toMatchObject({
    type: 'Update',
    object: { id: `${h.url}/ap/notes/11`, content: '<p>First post, edited</p>' },
  });
  await h.post('deleted', { id: 11, userId: ADA.id, revision: 3 });
  const del = await eventually(async () => ofType('Delete')[0], WAIT);
  expect(del.activity).toMatchObject({
    type: 'Delete',
    actor: ada,
    object: { id: `${h.url}/ap/notes/11`, type: 'Tombstone' },
  });
});

test('a host without a shared inbox gets the activity at each follower’s inbox', async () => {
  h.foreign.sharedInbox = false;
  // The followers' actors are read again (as after a day): forget the stored copies' freshness.
  await h.store.collection('actors').updateMany({}, { $set: { fetchedAt: new Date(0), sharedInbox: null } });
  await h.store.collection('actors').updateMany({}, { $unset: { sharedInbox: '' } });
  await h.post('published', { id: 12, userId: ADA.id, revision: 1 });
  const creates = await eventually(async () => {
    const list = ofType('Create').filter((r) =>
      (r.activity.object as { id: string }).id.endsWith('/notes/12'),
    );
    return list.length === 3 ? list : undefined;
  }, WAIT);
  expect(creates.map((c) => c.inbox).sort()).toEqual(
    ['alice', 'bob', 'carol'].map((n) => `${h.foreign.actorUrl(n)}/inbox`),
  );
});

test('a post mentioning @alice@host is delivered to her even without a follow', async () => {
  h.foreign.sharedInbox = false;
  const before = h.foreign.received.length;
  await h.post('published', {
    id: 13,
    userId: 2,
    contentHtml: `<p>Hi @dave@${h.foreign.host}</p>`,
    contentText: `Hi @dave@${h.foreign.host}`,
    revision: 1,
  });
  const create = await eventually(
    async () => h.foreign.received.slice(before).find((r) => r.activity.type === 'Create'),
    WAIT,
  );
  expect(create.inbox).toBe(`${h.foreign.actorUrl('dave')}/inbox`);
  expect(create.activity).toMatchObject({
    object: { tag: [{ type: 'Mention', href: h.foreign.actorUrl('dave'), name: `@dave@${h.foreign.host}` }] },
  });
});
