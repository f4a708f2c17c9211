// photos.json lists the newest public posts with photos across the service, `image` set to the first
// photo and every photo in `_service.photos`; a deleted photo post leaves it.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
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

it('lists only posts with photos, newest first, with image and _service.photos', async () => {
  await h.postEvent('published', {
    id: 1,
    userId: ada.id,
    photos: ['https://img.example/a.jpg', 'https://img.example/b.jpg'],
    publishedAt: '2026-11-21T08:00:00+00:00',
  });
  await h.postEvent('published', { id: 2, userId: ada.id, publishedAt: '2026-11-21T09:00:00+00:00' });
  await h.postEvent('published', {
    id: 3,
    userId: bob.id,
    photos: ['https://img.example/c.jpg'],
    publishedAt: '2026-11-21T10:00:00+00:00',
  });
  const feed = await feedWhen(h, '/feeds/photos.json', (f) => f.items.length === 2);
  expect(feed.title).toBe('Photos');
  expect(ids(feed)).toEqual(['3', '1']);
  expect(feed.items[1]).toMatchObject({
    image: 'https://img.example/a.jpg',
    _service: { username: 'ada', photos: ['https://img.example/a.jpg', 'https://img.example/b.jpg'] },
  });
  expect(feed.response.headers['cache-control']).toBe('public, max-age=60');
});

it('drops a deleted photo post', async () => {
  await h.postEvent('deleted', { id: 3, userId: bob.id, photos: ['https://img.example/c.jpg'] });
  expect(ids(await feedWhen(h, '/feeds/photos.json', (f) => f.items.length === 1))).toEqual(['1']);
});

it('is readable cross-origin through the gateway', async () => {
  const res = await h.request('GET', '/feeds/photos.json', { headers: { origin: 'https://app.example' } });
  expect(res.headers['access-control-allow-origin']).toBe('*');
});
