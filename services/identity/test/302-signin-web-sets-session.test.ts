// The emailed web sign-in link: opening it shows a confirmation page, its button (a POST) turns the
// token into a browser session; return_to only ever stays on site.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { TestResponse } from './harness.js';
import { followSigninLink, startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

async function webSignin(returnTo?: string): Promise<TestResponse> {
  const token = tokenFromMail(await h.signinMail('ada@example.com'));
  const query = new URLSearchParams({ token, ...(returnTo === undefined ? {} : { return_to: returnTo }) });
  return followSigninLink(h, `/account/signin/web?${query}`);
}

function sessionCookie(res: TestResponse): string {
  const header = res.headers['set-cookie'];
  const cookie = (Array.isArray(header) ? header : [header ?? '']).find((c) =>
    c.startsWith('murmur_session='),
  );
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

describe('GET, then POST /account/signin/web', () => {
  test('sets an HttpOnly, SameSite=Lax, 30-day session cookie and redirects to return_to', async () => {
    const res = await webSignin('/indieauth/auth?client_id=x');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/indieauth/auth?client_id=x');
    const cookie = sessionCookie(res);
    expect(cookie).toMatch(/^murmur_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(cookie).not.toContain('Secure'); // PUBLIC_URL is http:
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');

    const page = await h.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: `other=1; ${cookie.split(';')[0]}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Signed in as @ada');
  });

  test.each([
    ['https://evil.example/', 'an absolute URL'],
    ['//evil.example/', 'a protocol-relative URL'],
    ['/\\evil.example/', 'a backslash path'],
    ['javascript:alert(1)', 'a scheme'],
    ['/\tevil', 'a tab'],
    ['evil', 'a relative path without /'],
  ])('return_to=%s (%s) → redirect to / instead', async (returnTo) => {
    const res = await webSignin(returnTo);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
  });

  test('no return_to → /', async () => {
    expect((await webSignin()).headers.location).toBe('/');
  });

  test('a used or unknown token → 401 HTML page with no-referrer and no-store', async () => {
    const token = tokenFromMail(await h.signinMail('ada@example.com'));
    expect((await followSigninLink(h, `/account/signin/web?token=${token}`)).statusCode).toBe(302);
    for (const t of [token, 'B'.repeat(43)]) {
      const res = await h.inject({ method: 'GET', url: `/account/signin/web?token=${t}` });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toContain('expired or has already been used');
    }
  });

  test('an emailed token used for the web session no longer works at /account/verify', async () => {
    const token = tokenFromMail(await h.signinMail('ada@example.com'));
    await followSigninLink(h, `/account/signin/web?token=${token}`);
    expect((await h.verify(token)).statusCode).toBe(401);
  });

  test('a HEAD request (mail scanners) does not use up the token', async () => {
    const token = tokenFromMail(await h.signinMail('ada@example.com'));
    const head = await h.inject({ method: 'HEAD', url: `/account/signin/web?token=${token}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['set-cookie']).toBeUndefined();
    const get = await followSigninLink(h, `/account/signin/web?token=${token}`);
    expect(get.statusCode).toBe(302);
  });

  test('without a token → 400 HTML page', async () => {
    const res = await h.inject({ method: 'GET', url: '/account/signin/web' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('GET / (home page)', () => {
  test('without a session, or with a made-up one → 200 landing page naming no one', async () => {
    for (const headers of [{}, { cookie: 'murmur_session=made-up' }] as Array<Record<string, string>>) {
      const res = await h.inject({ method: 'GET', url: '/', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('This is a Murmur server');
      expect(res.body).not.toContain('Signed in as');
    }
  });

  test('a session expires after 30 days', async () => {
    const cookie = sessionCookie(await webSignin()).split(';')[0]!;
    h.clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const res = await h.inject({ method: 'GET', url: '/', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Signed in as');
  });
});

describe('Secure cookie', () => {
  test('with an https PUBLIC_URL the session cookie is Secure', async () => {
    const secure = await startIdentity({ PUBLIC_URL: 'https://murmur.test' });
    try {
      await secure.createUser('ada', 'ada@example.com');
      const token = tokenFromMail(await secure.signinMail('ada@example.com'));
      const res = await followSigninLink(secure, `/account/signin/web?token=${token}`);
      expect(sessionCookie(res)).toContain('; Secure');
    } finally {
      await secure.stop();
    }
  });
});
