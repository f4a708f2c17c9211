// Without a session the screen asks for an email address; the emailed link signs the browser in and
// brings it back to the screen, which then asks for consent.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { followSigninLink, type Harness } from './harness.js';
import { hiddenField, postForm, screen, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

const PARAMS = {
  client_id: 'https://reader.test/',
  redirect_uri: 'https://reader.test/cb',
  state: 'xyz',
  scope: 'create',
  inkwell: '1',
};

describe('GET /indieauth/auth without a session', () => {
  test('→ 200 sign-in form with the page headers of our screens', async () => {
    const res = await screen(h, PARAMS);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).not.toContain('form-action');
    expect(res.body).toContain('<form method="post" action="/indieauth/signin">');
    expect(res.body).toMatch(/type="email"\s+name="email"/);
    expect(res.body).not.toContain('name="csrf"');
  });

  test('email → "check your email"; the link signs in and returns to the screen, now a consent form', async () => {
    const form = await screen(h, PARAMS);
    const before = h.capture.messages.length;
    const sent = await postForm(h, '/indieauth/signin', {
      request: hiddenField(form.body, 'request'),
      email: 'ADA@example.com ',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Check your email');

    const mail = await h.capture.waitFor((m) => h.capture.messages.indexOf(m) >= before);
    const link = new URL(mail.links.find((l) => l.includes('/account/signin/web'))!);
    expect(link.origin).toBe('http://murmur.test');
    const returnTo = link.searchParams.get('return_to')!;
    expect(returnTo.startsWith('/indieauth/auth?')).toBe(true);
    expect(Object.fromEntries(new URLSearchParams(returnTo.split('?')[1]))).toEqual(PARAMS);

    // The link opens a confirmation page; its button signs the browser in.
    const landed = await followSigninLink(h, `${link.pathname}${link.search}`);
    expect(landed.statusCode).toBe(302);
    expect(landed.headers.location).toBe(returnTo);
    const cookie = /murmur_session=[^;]+/.exec(String(landed.headers['set-cookie']))![0];

    const consent = await h.inject({ url: returnTo, headers: { cookie } });
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain('<h1>reader.test</h1>');
    expect(consent.body).toContain('https://reader.test/');
    expect(consent.body).toContain('@ada');
    expect(consent.body).toContain('http://murmur.test/ada/');
    expect(consent.body).toContain('name="scope" value="create" checked');
    expect(consent.body).toContain('Reader access');
    expect(consent.body).toContain('you will be sent to <strong>reader.test</strong>');
    expect(consent.body).toMatch(/name="csrf" value="[A-Za-z0-9_-]{43}"/);
    expect(consent.body).toContain('name="deny" value="1"');
  });

  test('an email without an account → the same answer, and no mail', async () => {
    const form = await screen(h, PARAMS);
    const before = h.capture.messages.length;
    const sent = await postForm(h, '/indieauth/signin', {
      request: hiddenField(form.body, 'request'),
      email: 'nobody@example.com',
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Check your email');
    await new Promise((r) => setTimeout(r, 300));
    expect(h.capture.messages.length).toBe(before);
  });

  test('a malformed email → 400, the form again with the error', async () => {
    const form = await screen(h, PARAMS);
    const res = await postForm(h, '/indieauth/signin', {
      request: hiddenField(form.body, 'request'),
      email: 'foo',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Enter a valid email address.');
    expect(res.body).toContain('value="foo"');
  });

  test('an unknown request → 400 page', async () => {
    const res = await postForm(h, '/indieauth/signin', { request: 'nope', email: 'ada@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  test('the stylesheet the screens link is served by identity', async () => {
    const res = await h.inject({ url: '/indieauth/screen.css' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/css/);
  });
});
