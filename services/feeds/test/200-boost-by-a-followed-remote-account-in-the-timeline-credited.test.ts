// A boost by a followed account of another server (federation's post event with `repostOf`) shows in
// the follower's timeline — /feeds/{username}.json and the Microsub timeline (feeds.timeline.get) —
// as the booster's item (the booster is the author: whom the user follows) carrying the boosted post's
// words, and naming the boosted post and its author (`_service.repost_of`; `repostOf` on the bus).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { federation, feeds } from '@murmur/contracts';
import { feedWhen, startHarness, type Account, type Harness } from './harness.js';

const ALICE: federation.RemoteAccount = {
  id: federation.REMOTE_ID_BASE + 1,
  handle: 'alice@remote.example',
  name: 'Alice',
  url: 'https://remote.example/@alice',
  photo: 'https://remote.example/alice.png',
  actorId: 'https://remote.example/users/alice',
};
const DAVE: federation.RemoteAccount = {
  id: federation.REMOTE_ID_BASE + 2,
  handle: 'dave@other.example',
  name: 'Dave',
  url: 'https://other.example/@dave',
  photo: 'https://other.example/dave.png',
  actorId: 'https://other.example/users/dave',
};

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada' });
  await h.bus.handle(federation.accountResolve, async () => ({ account: ALICE }));
  const res = await h.request('POST', '/users/follow', {
    token: ada.token,
    body: { username: '@alice@remote.example' },
  });
  expect(res.statusCode).toBe(200);
}, 120_000);
afterAll(() => h?.stop());

test('Alice’s boost of Dave’s post: in Ada’s timeline as Alice’s item, crediting Dave', async () => {
  await h.bus.publish(federation.postReceived, {
    id: federation.REMOTE_ID_BASE + 9,
    author: ALICE,
    objectId: 'https://remote.example/users/alice/statuses/9/activity',
    url: 'https://other.example/@dave/3',
    title: '',
    contentHtml: '<p>Dave’s words</p>',
    contentText: 'Dave’s words',
    publishedAt: '2026-11-21T09:00:00+00:00',
    photos: [],
    mentions: [],
    inReplyTo: null,
    repostOf: {
      objectId: 'https://other.example/users/dave/statuses/3',
      url: 'https://other.example/@dave/3',
      author: DAVE,
    },
    revision: 1,
  });
  const feed = await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 1);
  expect(feed.items[0]).toMatchObject({
    url: 'https://other.example/@dave/3',
    content_html: '<p>Dave’s words</p>',
    author: { name: 'Alice', url: ALICE.url, avatar: ALICE.photo },
    _service: {
      username: 'alice@remote.example',
      repost_of: {
        url: 'https://other.example/@dave/3',
        author: { name: 'Dave', url: DAVE.url, avatar: DAVE.photo, username: 'dave@other.example' },
      },
    },
  });
  const { items } = await h.bus.request(feeds.timelineGet, { userId: ada.id, kind: 'default', limit: 20 });
  expect(items[0]).toMatchObject({
    author: { username: 'alice@remote.example', name: 'Alice' },
    repostOf: {
      url: 'https://other.example/@dave/3',
      author: { username: 'dave@other.example', name: 'Dave', url: DAVE.url, photo: DAVE.photo },
    },
  });
});
