// PATCH /account/me: a person edits their own profile — name, full name, bio, avatar and the links to
// their other profiles (rel="me", for IndieAuth and fediverse verification) — with an app token of
// their account. Every edit announces evt.identity.user.updated, so services that keep a copy of
// users (publishing renders the site pages from it) refresh theirs.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity, type EventEnvelope, type PublicUser } from '@murmur/contracts';
import { eventually, startIdentity, type Harness } from './harness.js';
import { authorizationCode, postForm, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
let ada: { id: number; token: string };
let bob: { id: number; token: string };
const updated: Array<EventEnvelope<{ user: PublicUser }>> = [];
beforeAll(async () => {
  h = await startIdentity();
  ada = await h.createUser('ada', 'ada@example.com');
  bob = await h.createUser('bob', 'bob@example.com');
  await h.bus.listen(identity.userUpdated, async (event) => {
    updated.push(event);
  });
});
afterAll(() => h.stop());

// Each edit a second after the last, as people make them (an event is one per user and millisecond).
const patchMe = (token: string, payload: unknown, headers: Record<string, string> = {}) => {
  h.clock.advance(1000);
  return h.inject({
    method: 'PATCH',
    url: '/account/me',
    headers: { authorization: `Bearer ${token}`, ...headers },
    payload: payload as string,
  });
};
const getMe = async (token: string) =>
  (await h.inject({ url: '/account/me', headers: { authorization: `Bearer ${token}` } })).json();
const lastUpdateOf = (id: number, after: number) =>
  eventually(async () => updated.slice(after).find((e) => e.data.user.id === id));

describe('PATCH /account/me', () => {
  test('name, bio, avatar and links → 200 the account, in the order given, duplicates dropped', async () => {
    const before = updated.length;
    const res = await patchMe(ada.token, {
      name: 'Ada',
      full_name: 'Ada Lovelace',
      bio: 'Counts things.',
      avatar: 'https://ada.example/me.png',
      links: [
        'https://social.example/@ada',
        'https://github.com/ada',
        'https://social.example/@ada',
        'https://ada.example/',
      ],
    });
    expect(res.statusCode).toBe(200);
    const links = ['https://social.example/@ada', 'https://github.com/ada', 'https://ada.example/'];
    expect(res.json()).toMatchObject({
      username: 'ada',
      name: 'Ada',
      full_name: 'Ada Lovelace',
      bio: 'Counts things.',
      avatar: 'https://ada.example/me.png',
      links,
    });
    expect(res.json().token).toBeUndefined();
    expect((await getMe(ada.token)).links).toEqual(links);

    const event = await lastUpdateOf(ada.id, before);
    expect(event.data.user).toMatchObject({ id: ada.id, name: 'Ada', bio: 'Counts things.', links });
  });

  test('only the fields sent change', async () => {
    const res = await patchMe(ada.token, { bio: 'Counts more things.' });
    expect(res.json()).toMatchObject({ name: 'Ada', bio: 'Counts more things.' });
    expect(res.json().links).toHaveLength(3);
  });

  test('a form with repeated links fields, blank ones ignored (an HTML form with empty rows)', async () => {
    const before = updated.length;
    const body = new URLSearchParams([
      ['links', 'https://one.example/'],
      ['links', ''],
      ['links', ' https://two.example/@ada '],
    ]).toString();
    const res = await patchMe(ada.token, body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(200);
    expect(res.json().links).toEqual(['https://one.example/', 'https://two.example/@ada']);
    expect((await lastUpdateOf(ada.id, before)).data.user.links).toEqual([
      'https://one.example/',
      'https://two.example/@ada',
    ]);
  });

  test('links: [] clears them, and that is announced too', async () => {
    const before = updated.length;
    const res = await patchMe(ada.token, { links: [] });
    expect(res.json().links).toEqual([]);
    expect((await lastUpdateOf(ada.id, before)).data.user.links).toEqual([]);
  });

  test('each person edits their own account: bob is untouched by ada’s edits', async () => {
    expect(await getMe(bob.token)).toMatchObject({ name: 'bob', bio: '', links: [] });
  });

  test('nothing to change → 400', async () => {
    const res = await patchMe(ada.token, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/nothing to change/i);
  });

  test('no token → 401', async () => {
    const res = await h.inject({ method: 'PATCH', url: '/account/me', payload: { bio: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('PATCH /account/me with an IndieAuth token', () => {
  test('→ 403: IndieAuth scopes do not include changing the profile', async () => {
    const ia = await startIndieAuthIdentity();
    try {
      await ia.createUser('cy', 'cy@example.com');
      const cookie = await signInBrowser(ia, 'cy@example.com');
      const client = { client_id: 'https://app.test/', redirect_uri: 'https://app.test/cb' };
      const code = await authorizationCode(ia, cookie, { ...client, scope: 'profile create update' });
      const token = (await postForm(ia, '/indieauth/token', { code, ...client })).json().access_token;
      const res = await ia.inject({
        method: 'PATCH',
        url: '/account/me',
        headers: { authorization: `Bearer ${token}` },
        payload: { bio: 'changed by an app' },
      });
      expect(res.statusCode).toBe(403);
      const me = await ia.inject({ url: '/account/me', headers: { authorization: `Bearer ${token}` } });
      expect(me.json().bio).toBe('');
    } finally {
      await ia.stop();
    }
  });
});
