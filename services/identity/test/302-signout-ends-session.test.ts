// POST /account/signout (the screen's "Not you?" form): with the form's CSRF token the session ends
// everywhere and the cookie is cleared; without it nothing happens.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { hiddenField, postForm, screen, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

const PARAMS = { client_id: 'https://app.test/', redirect_uri: 'https://app.test/cb' };

function signoutFields(html: string) {
  const form = html.slice(html.indexOf('action="/account/signout"'));
  return { csrf: hiddenField(form, 'csrf'), return_to: hiddenField(form, 'return_to') };
}

describe('POST /account/signout', () => {
  test('with the CSRF token → session ended, cookie cleared, back to the screen which asks for an email', async () => {
    const cookie = await signInBrowser(h, 'ada@example.com');
    const fields = signoutFields((await screen(h, PARAMS, cookie)).body);
    const res = await postForm(h, '/account/signout', fields, { cookie });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(fields.return_to);
    expect(fields.return_to.startsWith('/indieauth/auth?')).toBe(true);
    expect(String(res.headers['set-cookie'])).toMatch(/^murmur_session=; Max-Age=0;.*HttpOnly; SameSite=Lax/);
    // The old cookie no longer works even if a browser kept it.
    const again = await screen(h, PARAMS, cookie);
    expect(again.body).toContain('action="/indieauth/signin"');
  });

  test('without or with a wrong CSRF token → 403 and the session lives on', async () => {
    const cookie = await signInBrowser(h, 'ada@example.com');
    for (const csrf of [undefined, 'A'.repeat(43)]) {
      const res = await postForm(h, '/account/signout', csrf ? { csrf } : {}, { cookie });
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect((await screen(h, PARAMS, cookie)).body).toContain('action="/indieauth/approve"');
  });

  test('an off-site return_to is not followed', async () => {
    const cookie = await signInBrowser(h, 'ada@example.com');
    const { csrf } = signoutFields((await screen(h, PARAMS, cookie)).body);
    const res = await postForm(
      h,
      '/account/signout',
      { csrf, return_to: 'https://evil.example/' },
      { cookie },
    );
    expect(res.headers.location).toBe('/');
  });
});
