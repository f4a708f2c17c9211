// A foreign server's signed activities, each case of the inbox: Follow (answered with a signed Accept
// to the follower's inbox), Like and Announce of a local post, a reply that mentions a local user,
// its edit and deletion, Undo of a like and of the follow, a redelivered activity, and the deletion of
// the actor. Signed in draft-cavage form unless said otherwise; RFC 9421 is verified too.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { ADA, startHarness, type Harness } from './harness.js';

let h: Harness;
let alice: string;
let ada: string;
let note: string;
let permalink: string;
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

beforeAll(async () => {
  h = await startHarness();
  alice = h.foreign.actorUrl('alice');
  ada = `${h.url}/ap/users/ada`;
  note = `${h.url}/ap/notes/5`;
  permalink = `${h.url}/sites/ada/2026/11/21/post-5.html`;
  await h.post('published', { id: 5, userId: ADA.id, revision: 1 });
});
afterAll(() => h.stop());

const inbox = () => `${h.url}/ap/inbox`;

test('Follow → 202, a follower event, and a signed Accept at the follower’s own inbox', async () => {
  const follow = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${alice}#follows/1`,
    type: 'Follow',
    actor: alice,
    object: ada,
  };
  const res = await h.foreign.send(`${ada}/inbox`, follow);
  expect(res.status).toBe(202);
  await eventually(async () => (h.events.followerAdded.length === 1 ? true : undefined), 15_000);
  expect(h.events.followerAdded[0]!.data).toMatchObject({
    userId: ADA.id,
    username: 'ada',
    follower: { actorId: alice, handle: `alice@${h.foreign.host}` },
  });
  const accept = await eventually(
    async () => h.foreign.received.find((r) => r.activity.type === 'Accept'),
    15_000,
  );
  expect(accept.inbox).toBe(`${alice}/inbox`);
  expect(accept.keyId).toBe(`${ada}#main-key`);
  expect(accept.activity).toMatchObject({
    type: 'Accept',
    actor: ada,
    object: { id: `${alice}#follows/1`, type: 'Follow' },
  });
  expect(((await h.get('/ap/users/ada/followers')).json() as { totalItems: number }).totalItems).toBe(1);
});

test('Like signed with RFC 9421 → a like of the post (where webmentions show)', async () => {
  const res = await h.foreign.send(
    inbox(),
    { id: `${alice}#likes/1`, type: 'Like', actor: alice, object: note },
    { scheme: 'rfc9421' },
  );
  expect(res.status).toBe(202);
  const like = await eventually(async () => h.events.interactionReceived.find((e) => e.data.type === 'like'));
  expect(like.data).toMatchObject({
    source: `${alice}#likes/1`,
    target: permalink,
    targetUserId: ADA.id,
    author: { name: 'Alice', url: `${h.foreign.origin}/@alice` },
  });
});

test('Announce of the permalink → a repost', async () => {
  expect(
    (
      await h.foreign.send(inbox(), {
        id: `${alice}/statuses/9/activity`,
        type: 'Announce',
        actor: alice,
        object: permalink,
        to: [AS_PUBLIC],
      })
    ).status,
  ).toBe(202);
  await eventually(async () => h.events.interactionReceived.find((e) => e.data.type === 'repost'));
});

test('a public reply mentioning ada → a reply to the post and a post in her mentions; edited; deleted', async () => {
  const reply = {
    id: `${alice}/statuses/10`,
    type: 'Note',
    attributedTo: alice,
    to: [AS_PUBLIC],
    cc: [ada],
    inReplyTo: note,
    content: '<p><span class="h-card"><a href="x">@ada</a></span> Lovely! <script>alert(1)</script></p>',
    url: `${h.foreign.origin}/@alice/10`,
    published: '2026-11-21T09:00:00Z',
    tag: [{ type: 'Mention', href: ada, name: `@ada@${h.host}` }],
  };
  expect(
    (
      await h.foreign.send(inbox(), {
        id: `${reply.id}/activity`,
        type: 'Create',
        actor: alice,
        object: reply,
      })
    ).status,
  ).toBe(202);
  const got = await eventually(async () => h.events.interactionReceived.find((e) => e.data.type === 'reply'));
  expect(got.data).toMatchObject({
    source: `${h.foreign.origin}/@alice/10`,
    target: permalink,
    contentText: '@ada Lovely!',
    published: '2026-11-21T09:00:00+00:00',
  });
  expect(got.data.contentHtml).not.toContain('script');
  const post = await eventually(async () => h.events.postReceived[0]);
  expect(post.data).toMatchObject({
    objectId: reply.id,
    mentions: [{ userId: ADA.id, username: 'ada' }],
    inReplyTo: note,
    author: { handle: `alice@${h.foreign.host}` },
  });

  const edited = { ...reply, content: '<p>Lovely indeed</p>', updated: '2026-11-21T09:05:00Z' };
  expect(
    (
      await h.foreign.send(inbox(), {
        id: `${reply.id}#updates/1`,
        type: 'Update',
        actor: alice,
        object: edited,
      })
    ).status,
  ).toBe(202);
  await eventually(async () =>
    h.events.interactionReceived.find(
      (e) => e.data.type === 'reply' && e.data.contentText === 'Lovely indeed',
    ),
  );
  await eventually(async () => h.events.postUpdated.find((e) => e.data.contentText === 'Lovely indeed'));

  expect(
    (
      await h.foreign.send(inbox(), {
        id: `${reply.id}#delete`,
        type: 'Delete',
        actor: alice,
        object: { id: reply.id, type: 'Tombstone' },
      })
    ).status,
  ).toBe(202);
  await eventually(async () => h.events.interactionRemoved.find((e) => e.data.type === 'reply'));
  await eventually(async () => h.events.postDeleted.find((e) => e.data.objectId === reply.id));
});

test('the same activity delivered twice is handled once', async () => {
  const like = { id: `${alice}#likes/2`, type: 'Like', actor: alice, object: note };
  expect((await h.foreign.send(inbox(), like)).status).toBe(202);
  expect((await h.foreign.send(inbox(), like)).status).toBe(202);
  await eventually(async () => h.events.interactionReceived.find((e) => e.data.source === like.id));
  await new Promise((r) => setTimeout(r, 200));
  expect(h.events.interactionReceived.filter((e) => e.data.source === like.id)).toHaveLength(1);
});

test('Undo of a like removes it; Undo of the follow removes the follower', async () => {
  expect(
    (
      await h.foreign.send(inbox(), {
        id: `${alice}#likes/1/undo`,
        type: 'Undo',
        actor: alice,
        object: { id: `${alice}#likes/1`, type: 'Like', actor: alice, object: note },
      })
    ).status,
  ).toBe(202);
  await eventually(async () => h.events.interactionRemoved.find((e) => e.data.source === `${alice}#likes/1`));
  expect(
    (
      await h.foreign.send(inbox(), {
        id: `${alice}#follows/1/undo`,
        type: 'Undo',
        actor: alice,
        object: { id: `${alice}#follows/1`, type: 'Follow', actor: alice, object: ada },
      })
    ).status,
  ).toBe(202);
  await eventually(async () => (h.events.followerRemoved.length === 1 ? true : undefined));
  expect(((await h.get('/ap/users/ada/followers')).json() as { totalItems: number }).totalItems).toBe(0);
});

test('Delete of the actor takes its follow, boost and likes away', async () => {
  const bob = h.foreign.actorUrl('bob');
  expect(
    (
      await h.foreign.send(
        `${ada}/inbox`,
        { id: `${bob}#follows/1`, type: 'Follow', actor: bob, object: ada },
        { name: 'bob' },
      )
    ).status,
  ).toBe(202);
  expect(
    (
      await h.foreign.send(
        inbox(),
        { id: `${bob}#likes/1`, type: 'Like', actor: bob, object: note },
        { name: 'bob' },
      )
    ).status,
  ).toBe(202);
  await eventually(async () => h.events.interactionReceived.find((e) => e.data.source === `${bob}#likes/1`));
  h.foreign.deleteActor('bob');
  const res = await h.foreign.send(
    inbox(),
    { id: `${bob}#delete`, type: 'Delete', actor: bob, object: bob, to: [AS_PUBLIC] },
    { name: 'bob' },
  );
  expect(res.status).toBe(202);
  await eventually(async () => h.events.interactionRemoved.find((e) => e.data.source === `${bob}#likes/1`));
  await eventually(async () =>
    h.events.followerRemoved.find(
      (e) => (e.data as { follower: { actorId: string } }).follower.actorId === bob,
    ),
  );
});
