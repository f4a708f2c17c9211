// blogroll.org.json lists the sites of opted-in users only, sorted by title case-insensitively, with
// their categories; the operator opts users in and out with the admin token.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { publishing } from '@murmur/contracts';
import { sendOverWire } from '@murmur/testing';
import { ADMIN_TOKEN, eventually, ids, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
const users: Record<string, Account> = {};

beforeAll(async () => {
  h = await startHarness();
  for (const name of ['ada', 'bob', 'cy']) users[name] = await h.createUser(name);
  const sites = [
    { id: 17, user: 'ada', title: "Ada's notes", description: 'Notes on engines' },
    { id: 18, user: 'bob', title: 'bob builds', description: '' },
    { id: 19, user: 'cy', title: 'Zebra crossing', description: 'not listed' },
  ];
  for (const s of sites) {
    await h.bus.publish(publishing.siteCreated, {
      site: {
        id: s.id,
        userId: users[s.user]!.id,
        username: s.user,
        host: `${s.user}.example`,
        url: `https://${s.user}.example/`,
        isDefault: true,
        createdAt: '2026-11-21T08:00:00+00:00',
        title: s.title,
        description: s.description,
      },
    });
  }
  await eventually(async () =>
    (await h.store.collection('sites').countDocuments({})) === 3 ? true : undefined,
  );
});
afterAll(() => h?.stop());

const admin = (method: string, username: string, body?: unknown, token = ADMIN_TOKEN) =>
  sendOverWire(h.feedsUrl, {
    method,
    url: `/admin/blogroll/${username}`,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { payload: body as object } : {}),
  });

it('lists only opted-in users, sorted by title, with categories', async () => {
  expect((await h.feed('/blogroll.org.json')).items).toEqual([]);
  const put = await admin('PUT', 'ada', { categories: ['Technology', 'history'] });
  expect(put.statusCode).toBe(200);
  expect(put.json()).toEqual({ username: 'ada', categories: ['technology', 'history'] });
  expect((await admin('PUT', 'bob')).statusCode).toBe(200);

  const feed = await h.feed('/blogroll.org.json');
  expect(feed.title).toBe('Blogroll');
  expect(ids(feed)).toEqual(['site-17', 'site-18']);
  expect(feed.items[0]).toEqual({
    id: 'site-17',
    url: 'https://ada.example/',
    title: "Ada's notes",
    content_html: '<p>Notes on engines</p>',
    content_text: 'Notes on engines',
    _service: { username: 'ada', categories: ['technology', 'history'] },
  });
  expect(feed.items[1]).toMatchObject({
    title: 'bob builds',
    content_html: '',
    _service: { categories: [] },
  });
});

it('takes a user out again; unknown users and bad tokens are refused', async () => {
  expect((await admin('DELETE', 'bob')).statusCode).toBe(200);
  expect(ids(await h.feed('/blogroll.org.json'))).toEqual(['site-17']);
  expect((await admin('DELETE', 'bob')).statusCode).toBe(404);
  expect((await admin('PUT', 'nobody')).statusCode).toBe(404);
  expect((await admin('PUT', 'cy', undefined, 'wrong-token-0123456789')).statusCode).toBe(401);
  expect((await admin('PUT', 'cy', { categories: 'a'.repeat(65) })).statusCode).toBe(400);
  expect(ids(await h.feed('/blogroll.org.json'))).toEqual(['site-17']);
});
