// A verified webmention to ada's site appears in ada/webmentions.json with its type and target, newest
// received first; a deleted one disappears; another user's mentions never show.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { webmention } from '@murmur/contracts';
import { feedWhen, ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
});
afterAll(() => h?.stop());

function mention(id: number, targetUserId: number, extra: Partial<webmention.VerifiedMention> = {}) {
  return {
    id,
    source: `https://carol.example/r/${id}`,
    target: `https://ada.example/2026/11/21/hello.html`,
    targetUserId,
    type: 'reply' as const,
    author: { name: 'Carol', url: 'https://carol.example/', photo: 'https://carol.example/me.png' },
    contentHtml: '<p>Nice post</p>',
    contentText: 'Nice post',
    published: '2026-11-21T10:00:00+00:00',
    received: `2026-11-21T11:0${id % 10}:00+00:00`,
    isNew: true,
    ...extra,
  };
}

it('lists verified mentions with _service.type and target, newest received first', async () => {
  await h.bus.publish(webmention.mentionVerified, mention(1, ada.id));
  await h.bus.publish(
    webmention.mentionVerified,
    mention(2, ada.id, { type: 'like', contentHtml: '', contentText: '', published: null }),
  );
  await h.bus.publish(webmention.mentionVerified, mention(3, bob.id));
  const feed = await feedWhen(h, '/feeds/ada/webmentions.json', (f) => f.items.length === 2);
  expect(feed.title).toBe('ada webmentions');
  expect(ids(feed)).toEqual(['2', '1']);
  expect(feed.items[1]).toEqual({
    id: '1',
    url: 'https://carol.example/r/1',
    content_html: '<p>Nice post</p>',
    content_text: 'Nice post',
    date_published: '2026-11-21T10:00:00+00:00',
    authors: [{ name: 'Carol', url: 'https://carol.example/', avatar: 'https://carol.example/me.png' }],
    author: { name: 'Carol', url: 'https://carol.example/', avatar: 'https://carol.example/me.png' },
    _service: { type: 'reply', target: 'https://ada.example/2026/11/21/hello.html' },
  });
  // A like without content still has content_html, dated when received.
  expect(feed.items[0]).toMatchObject({
    content_html: '',
    date_published: '2026-11-21T11:02:00+00:00',
    _service: { type: 'like' },
  });
  expect(ids(await h.feed('/feeds/bob/webmentions.json'))).toEqual(['3']);
});

it('drops a mention deleted upstream', async () => {
  await h.bus.publish(webmention.mentionDeleted, {
    id: 1,
    source: 'https://carol.example/r/1',
    target: 'https://ada.example/2026/11/21/hello.html',
    targetUserId: ada.id,
  });
  const feed = await feedWhen(h, '/feeds/ada/webmentions.json', (f) => f.items.length === 1);
  expect(ids(feed)).toEqual(['2']);
});
