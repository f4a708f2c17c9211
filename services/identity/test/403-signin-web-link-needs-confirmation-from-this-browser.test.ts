// Login CSRF: opening an emailed web sign-in link must not sign the browser in by itself, or an
// attacker could make a victim's browser load the attacker's own link and act as the attacker from
// then on. The GET shows a confirmation page; only its button (a POST carrying the page's cookie and
// matching form field) signs in. A forged cross-site POST has neither.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { followSigninLink, hiddenField, startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('mallory', 'mallory@example.com');
});
afterAll(() => h.stop());

const link = async () => tokenFromMail(await h.signinMail('mallory@example.com'));
const hasSession = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie'] ?? '').includes('murmur_session=');
const post = (fields: Record<string, string>, cookie?: string) =>
  h.inject({
    method: 'POST',
    url: '/account/signin/web',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie === undefined ? {} : { cookie }),
    },
    payload: new URLSearchParams(fields).toString(),
  });

describe('GET /account/signin/web', () => {
  test('shows a confirmation page with a POST form; no session, and the token is not used up', async () => {
    const token = await link();
    const res = await h.inject({ url: `/account/signin/web?token=${token}&return_to=/somewhere` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(hasSession(res)).toBe(false);
    expect(res.body).toContain('<form method="post" action="/account/signin/web">');
    expect(hiddenField(res.body, 'return_to')).toBe('/somewhere');
    const confirm = String(res.headers['set-cookie']);
    expect(confirm).toMatch(/^murmur_signin=[A-Za-z0-9_-]{43};/);
    expect(confirm).toContain('HttpOnly');
    expect(confirm).toContain('SameSite=Strict');
    expect(confirm).toContain('Path=/account/signin/web');
    // Opening it again still works: nothing was consumed.
    expect((await h.inject({ url: `/account/signin/web?token=${token}` })).statusCode).toBe(200);
  });
});

describe('POST /account/signin/web', () => {
  test('a cross-site form (no confirmation cookie) → 403, no session, and the token still works', async () => {
    const token = await link();
    const res = await post({ token, csrf: 'guessed' });
    expect(res.statusCode).toBe(403);
    expect(hasSession(res)).toBe(false);
    expect((await followSigninLink(h, `/account/signin/web?token=${token}`)).statusCode).toBe(302);
  });

  test("the attacker's own page's form field with the victim's (other) cookie → 403", async () => {
    const token = await link();
    const attackerPage = await h.inject({ url: `/account/signin/web?token=${token}` });
    const victimPage = await h.inject({ url: `/account/signin/web?token=${token}` });
    const victimCookie = String(victimPage.headers['set-cookie']).split(';')[0]!;
    const res = await post({ token, csrf: hiddenField(attackerPage.body, 'csrf') }, victimCookie);
    expect(res.statusCode).toBe(403);
    expect(hasSession(res)).toBe(false);
  });

  test('from the confirmation page → 302 with the session cookie; the confirmation cookie is cleared', async () => {
    const res = await followSigninLink(h, `/account/signin/web?token=${await link()}&return_to=/after`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/after');
    expect(hasSession(res)).toBe(true);
    expect(String(res.headers['set-cookie'])).toContain('murmur_signin=; Max-Age=0');
  });
});
