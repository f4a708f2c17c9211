// POST /account/verify: an emailed token becomes a new app token and the full account object.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { PUBLIC_URL, startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
let adminToken: string;
beforeAll(async () => {
  h = await startIdentity();
  adminToken = (await h.createUser('ada', 'ada@example.com')).token;
  await h.registerApp('Reader', 'app://signin');
});
afterAll(() => h.stop());

describe('POST /account/verify', () => {
  test('an emailed token returns a new app token and every account field with its default', async () => {
    const emailed = tokenFromMail(await h.signinMail('ada@example.com'));
    const res = await h.verify(emailed);
    expect(res.statusCode).toBe(200);
    const account = res.json();
    expect(account).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      name: 'ada',
      username: 'ada',
      avatar: `${PUBLIC_URL}/account/avatar/ada.svg`,
      bio: '',
      default_site: '',
      full_name: '',
      fallback_avatar_url: `${PUBLIC_URL}/account/avatar/ada.svg`,
      has_site: false,
      plan: 'free',
      plans: ['free'],
      is_fullaccess: true,
      is_premium: false,
      is_using_ai: false,
      has_inkwell: true,
    });
    expect(account.token).not.toBe(emailed);
    expect(account.token).not.toBe(adminToken);

    const me = await h.inject({
      method: 'GET',
      url: '/account/me',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(me.statusCode).toBe(200);
    const { token: _token, ...withoutToken } = account;
    // The owner's view adds their profile links (none yet) to the account object.
    expect(me.json()).toEqual({ ...withoutToken, links: [] });
  });

  test('the new app token is labelled with the app of the sign-in, else "web"', async () => {
    await h.verify(tokenFromMail(await h.signinMail('ada@example.com', { app_name: 'Reader' })));
    const tokens = (await h.admin('GET', '/admin/users/1/tokens')).json().tokens as Array<{ label: string }>;
    expect(tokens.map((t) => t.label)).toEqual(['admin', 'web', 'Reader']);
  });

  test('an app token returns the same token', async () => {
    const res = await h.verify(adminToken);
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBe(adminToken);
  });

  test('profile edits by the operator show in the account object', async () => {
    await h.admin('PATCH', '/admin/users/1', {
      name: 'Ada',
      full_name: 'Ada Lovelace',
      bio: 'Analyst',
      avatar: 'https://ada.example/me.png',
      plan: 'pro',
      plans: ['free', 'pro'],
    });
    expect((await h.verify(adminToken)).json()).toMatchObject({
      name: 'Ada',
      full_name: 'Ada Lovelace',
      bio: 'Analyst',
      avatar: 'https://ada.example/me.png',
      fallback_avatar_url: `${PUBLIC_URL}/account/avatar/ada.svg`,
      plan: 'pro',
      plans: ['free', 'pro'],
    });
  });

  describe('token sources', () => {
    const post = (opts: { url?: string; headers?: Record<string, string>; payload?: string | object }) =>
      h.inject({
        method: 'POST',
        url: opts.url ?? '/account/verify',
        headers: opts.headers ?? {},
        payload: opts.payload,
      });

    test('query string', async () => {
      const res = await post({ url: `/account/verify?token=${adminToken}` });
      expect([res.statusCode, res.json().token]).toEqual([200, adminToken]);
    });

    test('form body', async () => {
      const res = await post({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `token=${adminToken}`,
      });
      expect([res.statusCode, res.json().token]).toEqual([200, adminToken]);
    });

    test('JSON body', async () => {
      const res = await post({ payload: { token: adminToken } });
      expect([res.statusCode, res.json().token]).toEqual([200, adminToken]);
    });

    test('Bearer header when no token parameter is sent', async () => {
      const res = await post({ headers: { authorization: `Bearer ${adminToken}` } });
      expect([res.statusCode, res.json().token]).toEqual([200, adminToken]);
    });

    test('the parameter wins over a Bearer header sent as well', async () => {
      const emailed = tokenFromMail(await h.signinMail('ada@example.com'));
      const res = await post({
        headers: { authorization: 'Bearer something-else' },
        payload: { token: emailed },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().token).not.toBe(emailed);
    });
  });
});
