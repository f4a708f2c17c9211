// The whole path with the real services: identity, publishing and feeds behind the gateway on one
// memory bus. bob publishes over XML-RPC; ada, who follows bob, sees the post in her timeline; an edit
// updates it; a draft and a scheduled post appear nowhere; a mention reaches ada/mentions.json; a
// deletion removes the post from every feed.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { feedWhen, ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness({ publishing: true });
  ada = await h.createUser('ada', { name: 'Ada' });
  bob = await h.createUser('bob', { name: 'Bob' });
  await h.follow(ada, 'bob');
}, 60_000);
afterAll(() => h?.stop());

function postIdOf(xml: string): string {
  const match = /<value>(?:<(?:string|int|i4)>)?(\d+)(?:<\/(?:string|int|i4)>)?<\/value>/.exec(xml);
  if (!match) throw new Error(`no post id in ${xml}`);
  return match[1]!;
}

let postId: string;

it('shows bob’s new post in ada’s timeline, with his site as his profile URL', async () => {
  const xml = await h.xmlrpc('metaWeblog.newPost', [
    '0',
    'bob',
    bob.token,
    { title: 'Hello', description: '<p>Hello world</p>' },
    true,
  ]);
  postId = postIdOf(xml);
  const feed = await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 1);
  const item = feed.items[0]!;
  expect(item).toMatchObject({
    id: postId,
    title: 'Hello',
    content_html: expect.stringContaining('Hello world'),
    author: { name: 'Bob', url: `${h.publicUrl}/sites/bob/` },
    _service: { username: 'bob' },
  });
  expect(item.url).toMatch(new RegExp(`^${h.publicUrl}/sites/bob/`));
  expect(item.date_published).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
});

it('updates the item when bob edits the post', async () => {
  await h.xmlrpc('metaWeblog.editPost', [
    postId,
    'bob',
    bob.token,
    { title: 'Hello again', description: '<p>Edited</p>' },
    true,
  ]);
  const feed = await feedWhen(h, '/feeds/ada.json', (f) => f.items[0]?.title === 'Hello again');
  expect(ids(feed)).toEqual([postId]);
  expect(feed.items[0]!.content_html).toContain('Edited');
});

it('shows drafts and scheduled posts nowhere', async () => {
  await h.xmlrpc('metaWeblog.newPost', [
    '0',
    'bob',
    bob.token,
    { title: 'Draft', description: 'quiet @ada', post_status: 'draft' },
    false,
  ]);
  await h.xmlrpc('metaWeblog.newPost', [
    '0',
    'bob',
    bob.token,
    { title: 'Later', description: 'soon', dateCreated: '20991231T08:00:00' } as never,
    true,
  ]);
  // A published post after them proves the events before it were handled.
  const xml = await h.xmlrpc('metaWeblog.newPost', [
    '0',
    'bob',
    bob.token,
    { title: 'Marker', description: 'hi @ada' },
    true,
  ]);
  const marker = postIdOf(xml);
  const feed = await feedWhen(h, '/feeds/ada.json', (f) => ids(f).includes(marker));
  expect(feed.items.map((i) => i.title)).toEqual(['Marker', 'Hello again']);
  expect((await h.feed('/feeds/bob.json')).items.map((i) => i.title)).toEqual(['Marker', 'Hello again']);
  const mentions = await feedWhen(h, '/feeds/ada/mentions.json', (f) => f.items.length === 1);
  expect(ids(mentions)).toEqual([marker]);
});

it('removes a deleted post from every feed', async () => {
  const mentioned = (await h.feed('/feeds/ada/mentions.json')).items[0]!.id;
  await h.xmlrpc('metaWeblog.deletePost', [mentioned, 'bob', bob.token]);
  await h.xmlrpc('metaWeblog.deletePost', [postId, 'bob', bob.token]);
  await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 0);
  expect((await h.feed('/feeds/ada/mentions.json')).items).toEqual([]);
  expect((await h.feed('/feeds/bob.json')).items).toEqual([]);
});
