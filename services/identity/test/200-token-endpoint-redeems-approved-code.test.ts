// POST /indieauth/token: an approved code becomes an access token (or, without scope, identity only).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { authorizationCode, pkcePair, postForm, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

const CLIENT = 'https://reader.test/';
const REDIRECT = 'https://reader.test/callback';
let h: Harness;
let cookie: string;

beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
  await h.admin('PATCH', '/admin/users/1', { name: 'Ada Lovelace', avatar: 'https://ada.example/me.png' });
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(() => h.stop());

const params = (extra: Record<string, string> = {}) => ({
  client_id: CLIENT,
  redirect_uri: REDIRECT,
  state: 'st-1',
  response_type: 'code',
  ...extra,
});
const redeem = (fields: Record<string, string>) =>
  postForm(h, '/indieauth/token', {
    grant_type: 'authorization_code',
    client_id: CLIENT,
    redirect_uri: REDIRECT,
    ...fields,
  });

describe('POST /indieauth/token', () => {
  test('a code approved with scope → access_token, Bearer, scope, me with trailing slash, profile; no-store', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizationCode(
      h,
      cookie,
      params({ scope: 'create', code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    const res = await redeem({ code, code_verifier: verifier });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    const body = res.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'Bearer',
      scope: 'create',
      me: 'http://murmur.test/ada/',
      profile: {
        name: 'Ada Lovelace',
        url: 'http://murmur.test/ada/',
        photo: 'https://ada.example/me.png',
        nickname: 'ada',
      },
    });
    expect(body.me.endsWith('/')).toBe(true);
  });

  test('older clients: no grant_type, no PKCE, JSON body → still redeemed', async () => {
    const code = await authorizationCode(h, cookie, {
      client_id: CLIENT,
      redirect_uri: REDIRECT,
      scope: 'create',
    });
    const res = await h.inject({
      method: 'POST',
      url: '/indieauth/token',
      payload: { code, client_id: CLIENT, redirect_uri: REDIRECT, me: 'https://someone.else/' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      token_type: 'Bearer',
      scope: 'create',
      me: 'http://murmur.test/ada/',
    });
  });

  test('a code approved without scope → me, scope "", profile and no access_token', async () => {
    const code = await authorizationCode(h, cookie, params());
    const res = await redeem({ code });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ me: 'http://murmur.test/ada/', scope: '', profile: expect.any(Object) });
    expect(body).not.toHaveProperty('access_token');
    expect(body).not.toHaveProperty('token_type');
  });

  test('unticking every scope on the screen → identity only', async () => {
    const code = await authorizationCode(h, cookie, params({ scope: 'create update' }), { ticked: [] });
    expect((await redeem({ code })).json()).not.toHaveProperty('access_token');
  });

  test('the token carries only the ticked subset of the requested scopes', async () => {
    const code = await authorizationCode(h, cookie, params({ scope: 'create update profile' }), {
      ticked: ['profile', 'update', 'follow'],
    });
    expect((await redeem({ code })).json().scope).toBe('update profile');
  });

  test('unknown scope words are dropped from the grant, not refused', async () => {
    const code = await authorizationCode(h, cookie, params({ scope: 'create publish admin' }));
    expect((await redeem({ code })).json().scope).toBe('create');
  });

  test('only unknown scope words → identity only', async () => {
    const code = await authorizationCode(h, cookie, params({ scope: 'publish admin' }));
    expect((await redeem({ code })).json()).toEqual({
      me: 'http://murmur.test/ada/',
      scope: '',
      profile: expect.any(Object),
    });
  });

  test('inkwell=1 → the token scope contains read', async () => {
    const code = await authorizationCode(h, cookie, params({ scope: 'create', inkwell: '1' }));
    const body = (await redeem({ code })).json();
    expect(body.scope.split(' ')).toEqual(expect.arrayContaining(['create', 'read']));
  });

  test('response_type=id → identity only, whatever scope was asked', async () => {
    const code = await authorizationCode(h, cookie, params({ response_type: 'id', scope: 'create' }));
    expect((await redeem({ code })).json()).not.toHaveProperty('access_token');
  });

  test('action=revoke on the token endpoint → 200 with an empty body', async () => {
    const code = await authorizationCode(h, cookie, params({ scope: 'read' }));
    const token = (await redeem({ code })).json().access_token as string;
    const res = await postForm(h, '/indieauth/token', { action: 'revoke', token });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    const check = await h.inject({ url: '/indieauth/token', headers: { authorization: `Bearer ${token}` } });
    expect(check.statusCode).toBe(401);
  });
});
