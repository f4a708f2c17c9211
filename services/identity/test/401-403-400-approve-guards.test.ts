// POST /indieauth/approve refuses without a session (401), without the right CSRF token (403) and
// for a request it does not know (400): always an HTML page, never a redirect.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { hiddenField, postForm, screen, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
let cookie: string;
let otherCookie: string;
beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
  await h.createUser('bob', 'bob@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
  otherCookie = await signInBrowser(h, 'bob@example.com');
});
afterAll(() => h.stop());

const PARAMS = {
  client_id: 'https://app.test/',
  redirect_uri: 'https://app.test/cb',
  state: 's',
  scope: 'create',
};

async function openScreen(withCookie = cookie) {
  const page = await screen(h, PARAMS, withCookie);
  return { request: hiddenField(page.body, 'request'), csrf: hiddenField(page.body, 'csrf') };
}

function expectPage(res: { statusCode: number; headers: Record<string, unknown> }, status: number) {
  expect(res.statusCode).toBe(status);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['x-frame-options']).toBe('DENY');
}

describe('POST /indieauth/approve refusals', () => {
  test('no session → 401 with the sign-in form for the same request', async () => {
    const fields = await openScreen();
    const res = await postForm(h, '/indieauth/approve', fields);
    expectPage(res, 401);
    expect(res.body).toContain('action="/indieauth/signin"');
    expect(res.body).toContain(`value="${fields.request}"`);
  });

  test('a made-up session cookie → 401', async () => {
    const fields = await openScreen();
    expectPage(await postForm(h, '/indieauth/approve', fields, { cookie: 'murmur_session=made-up' }), 401);
  });

  test('CSRF token missing → 403', async () => {
    const { request } = await openScreen();
    expectPage(await postForm(h, '/indieauth/approve', { request }, { cookie }), 403);
  });

  test('CSRF token wrong → 403', async () => {
    const { request } = await openScreen();
    expectPage(await postForm(h, '/indieauth/approve', { request, csrf: 'A'.repeat(43) }, { cookie }), 403);
  });

  test("another session's CSRF token → 403", async () => {
    const { request } = await openScreen();
    const { csrf } = await openScreen(otherCookie);
    expectPage(await postForm(h, '/indieauth/approve', { request, csrf }, { cookie }), 403);
  });

  test("another request's CSRF token → 403", async () => {
    const first = await openScreen();
    const second = await openScreen();
    expectPage(
      await postForm(h, '/indieauth/approve', { request: first.request, csrf: second.csrf }, { cookie }),
      403,
    );
  });

  test('the request expired (10 minutes) → 400', async () => {
    const fields = await openScreen();
    h.clock.advance(10 * 60_000 + 1_000);
    expectPage(await postForm(h, '/indieauth/approve', fields, { cookie }), 400);
  });

  test('a refused approval leaves the request usable: the right form still works', async () => {
    const fields = await openScreen();
    await postForm(h, '/indieauth/approve', { request: fields.request }, { cookie });
    expect((await postForm(h, '/indieauth/approve', fields, { cookie })).statusCode).toBe(302);
  });
});
