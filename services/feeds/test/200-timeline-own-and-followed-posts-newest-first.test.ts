// A timeline holds the user's own posts and those of the users they follow, newest first (then by id),
// never anyone else's; after an unfollow the other's posts leave it. Isolation between two users.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { feedWhen, ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;
let cy: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada', { name: 'Ada' });
  bob = await h.createUser('bob', { name: 'Bob' });
  cy = await h.createUser('cy');
});
afterAll(() => h?.stop());

describe('GET /feeds/{username}.json', () => {
  it('lists own and followed posts, newest first, nobody else’s', async () => {
    await h.follow(ada, 'bob');
    await h.postEvent('published', {
      id: 1,
      userId: ada.id,
      publishedAt: '2026-11-21T08:00:00+00:00',
      title: 'Ada one',
    });
    await h.postEvent('published', { id: 2, userId: bob.id, publishedAt: '2026-11-21T09:00:00+00:00' });
    await h.postEvent('published', { id: 3, userId: cy.id, publishedAt: '2026-11-21T10:00:00+00:00' });
    // Same time as post 2: the larger id comes first.
    await h.postEvent('published', { id: 4, userId: bob.id, publishedAt: '2026-11-21T09:00:00+00:00' });

    const feed = await feedWhen(h, '/feeds/ada.json', (f) => f.items.length === 3);
    expect(ids(feed)).toEqual(['4', '2', '1']);
    expect(feed.title).toBe('ada timeline');
    expect(feed.feed_url).toBe(`${h.publicUrl}/feeds/ada.json`);
    expect(feed.home_page_url).toBe(`${h.publicUrl}/ada/`);
    const own = feed.items[2]!;
    expect(own).toMatchObject({
      id: '1',
      title: 'Ada one',
      content_html: '<p>post 1</p>',
      content_text: 'post 1',
      date_published: '2026-11-21T08:00:00+00:00',
      author: { name: 'Ada', url: `${h.publicUrl}/ada/` },
      _service: { username: 'ada' },
    });
    expect(own.authors).toEqual([own.author]);
    expect(feed.items[0]!.title).toBeUndefined();
    expect(feed.response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(feed.response.headers['cache-control']).toBe('public, max-age=60');

    // Isolation: bob follows nobody, so his timeline is his own posts only.
    const bobs = await h.feed('/feeds/bob.json');
    expect(ids(bobs)).toEqual(['4', '2']);
    // The username is case-insensitive.
    expect(ids(await h.feed('/feeds/ADA.json'))).toEqual(['4', '2', '1']);
  });

  it('drops the posts of someone unfollowed', async () => {
    const res = await h.request('POST', '/users/unfollow', { token: ada.token, body: { username: 'bob' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(ids(await h.feed('/feeds/ada.json'))).toEqual(['1']);
  });

  it('is an empty feed for a user with nothing, and 404 for an unknown user', async () => {
    expect((await h.feed('/feeds/cy.json')).items.map((i) => i.id)).toEqual(['3']);
    const unknown = await h.request('GET', '/feeds/nobody.json');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'No such user.' });
  });
});
