// Bookmarks: a URL or a post of this service; the page is fetched (from a local server) for its title
// and to spot podcast episodes, which leave the private bookmarks feed and appear in listenlater with
// attachments. Same URL → same bookmark; paging with count and before_id; delete; bad input; isolation.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, feedWhen, ids, startHarness, type Account, type Harness } from './harness.js';
import { V1 } from './jsonfeed.js';
import { startPageServer, type PageServer } from './pages.js';

let h: Harness;
let ada: Account;
let bob: Account;
let pages: PageServer;
let privateUrl: string;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob', { name: 'Bob' });
  pages = await startPageServer({
    '/story': {
      type: 'text/html; charset=utf-8',
      body: '<html><head><title>A story</title><meta property="og:site_name" content="News"></head><body>x</body></html>',
    },
    '/episode': {
      type: 'text/html',
      body: '<html><head><title>Episode 12</title><meta property="og:audio" content="/ep12.mp3"><meta property="og:audio:type" content="audio/mpeg"></head></html>',
    },
    '/show.m4a': { type: 'audio/mp4', body: Buffer.alloc(64) },
  });
  privateUrl = new URL(
    (await h.request('GET', '/feeds/readlater/token', { token: ada.token })).json().bookmarks_url,
  ).pathname;
});
afterAll(async () => {
  await h?.stop();
  await pages?.close();
});

const save = (who: Account, body: unknown) =>
  h.request('POST', '/posts/bookmarks', { token: who.token, body });

describe('POST /posts/bookmarks', () => {
  it('saves a URL, fetches its title, and answers the same bookmark for the same URL', async () => {
    const res = await save(ada, { url: `${pages.url}/story` });
    expect(res.statusCode).toBe(200);
    const saved = res.json();
    expect(saved).toEqual({ id: expect.stringMatching(/^bm-\d+$/), url: `${pages.url}/story` });
    const again = await save(ada, { url: `${pages.url}/story` });
    expect(again.json()).toEqual(saved);
    const feed = await feedWhen(h, privateUrl, (f) => f.items[0]?.title === 'A story', V1);
    expect(feed.items).toEqual([
      {
        id: saved.id,
        url: `${pages.url}/story`,
        title: 'A story',
        content_html: `<p><a href="${pages.url}/story">A story</a></p>`,
        date_published: expect.stringMatching(/\+00:00$/),
        author: { name: 'News' },
        _service: { type: 'bookmark' },
      },
    ]);
  });

  it('keeps podcast episodes out of the bookmarks feed and lists them in listenlater', async () => {
    const page = (await save(ada, { url: `${pages.url}/episode` })).json();
    const file = (await save(ada, { url: `${pages.url}/show.m4a` })).json();
    const listen = await eventually(async () => {
      const feed = await h.authedFeed('/posts/bookmarks/listenlater', ada.token);
      return feed.items.length === 2 ? feed : undefined;
    });
    expect(listen.version).toBe('https://jsonfeed.org/version/1.1');
    expect(listen.items.map((i) => i.id)).toEqual([file.id, page.id]);
    expect(listen.items[1]!.attachments).toEqual([{ url: `${pages.url}/ep12.mp3`, mime_type: 'audio/mpeg' }]);
    expect(listen.items[0]!.attachments).toEqual([{ url: `${pages.url}/show.m4a`, mime_type: 'audio/mp4' }]);
    const feed = await h.feed(privateUrl, V1);
    expect(ids(feed)).not.toContain(page.id);
    expect(ids(feed)).not.toContain(file.id);
    expect(feed.items).toHaveLength(1);
  });

  it('bookmarks a post of this service by id, and 404s an unknown post', async () => {
    await h.postEvent('published', {
      id: 77,
      userId: bob.id,
      title: 'Bob’s post',
      url: 'https://bob.example/77',
    });
    const res = await eventually(async () => {
      const r = await save(ada, { id: 77 });
      return r.statusCode === 200 ? r : undefined;
    });
    expect(res.json()).toEqual({ id: expect.stringMatching(/^bm-/), url: 'https://bob.example/77' });
    const list = await h.authedFeed('/posts/bookmarks', ada.token);
    expect(list.items[0]).toMatchObject({
      url: 'https://bob.example/77',
      title: 'Bob’s post',
      author: { name: 'Bob' },
    });
    expect((await save(ada, { id: 999 })).statusCode).toBe(404);
  });

  it.each([
    [{ url: 'javascript:x' }, 'url: must be an absolute http(s) URL'],
    [{ url: 'ftp://x.example/' }, 'url: must be an absolute http(s) URL'],
    [{ url: `https://x.example/${'a'.repeat(2050)}` }, 'url: must be an absolute http(s) URL'],
    [{}, 'url: is required (or id, a post of this service)'],
    [{ id: 'abc' }, 'id: must be an integer from 1 to 9007199254740991'],
  ])('refuses %j with 400', async (body, error) => {
    const before = await h.store.collection('bookmarks').countDocuments({});
    const res = await save(ada, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error });
    expect(await h.store.collection('bookmarks').countDocuments({})).toBe(before);
  });
});

describe('GET /posts/bookmarks', () => {
  it('pages newest first with count and before_id, with next_url', async () => {
    const all = await h.authedFeed('/posts/bookmarks', ada.token);
    expect(all.items.length).toBe(4);
    const first = await h.authedFeed('/posts/bookmarks?count=2', ada.token);
    expect(first.items.map((i: { id: string }) => i.id)).toEqual(
      all.items.slice(0, 2).map((i: { id: string }) => i.id),
    );
    expect(first.next_url).toBe(`${h.publicUrl}/posts/bookmarks?count=2&before_id=${first.items[1]!.id}`);
    const next = await h.authedFeed(
      new URL(first.next_url!).pathname + new URL(first.next_url!).search,
      ada.token,
    );
    expect(next.items.map((i: { id: string }) => i.id)).toEqual(
      all.items.slice(2, 4).map((i: { id: string }) => i.id),
    );
    expect(next.next_url).toBeUndefined();
    expect((await h.request('GET', '/posts/bookmarks?count=0', { token: ada.token })).statusCode).toBe(400);
  });

  it('shows nothing of another user’s bookmarks', async () => {
    const bobs = await h.authedFeed('/posts/bookmarks', bob.token);
    expect(bobs.items).toEqual([]);
  });
});

describe('DELETE /posts/bookmarks/{id}', () => {
  it('deletes the user’s own bookmark and 404s anyone else’s', async () => {
    const all = await h.authedFeed('/posts/bookmarks', ada.token);
    const id = all.items[0]!.id;
    const asBob = await h.request('DELETE', `/posts/bookmarks/${id}`, { token: bob.token });
    expect(asBob.statusCode).toBe(404);
    const res = await h.request('DELETE', `/posts/bookmarks/${id}`, { token: ada.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await h.request('DELETE', `/posts/bookmarks/${id}`, { token: ada.token })).statusCode).toBe(404);
    expect((await h.request('DELETE', '/posts/bookmarks/nonsense', { token: ada.token })).statusCode).toBe(
      404,
    );
    const after = await h.authedFeed('/posts/bookmarks', ada.token);
    expect(after.items.map((i: { id: string }) => i.id)).not.toContain(id);
  });
});
