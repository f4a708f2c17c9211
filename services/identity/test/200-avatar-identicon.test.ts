// GET /account/avatar/{username}.svg: a deterministic, sandboxed, cacheable identicon.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.stop());

const get = (url: string) => h.inject({ method: 'GET', url });

describe('GET /account/avatar/{username}.svg', () => {
  test('an SVG with sandboxing, nosniff and caching headers', async () => {
    const res = await get('/account/avatar/ada.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(res.body).not.toMatch(/<script|on\w+=/i);
  });

  test('the same username always gives the same image; another username another one', async () => {
    const [a1, a2, b] = await Promise.all([
      get('/account/avatar/ada.svg'),
      get('/account/avatar/ada.svg'),
      get('/account/avatar/bob.svg'),
    ]);
    expect(a1.body).toBe(a2.body);
    expect(a1.body).not.toBe(b.body);
  });

  test('the fallback_avatar_url of an account serves', async () => {
    const { token } = await h.createUser('ada');
    const url = new URL((await h.verify(token)).json().fallback_avatar_url as string);
    expect((await get(url.pathname)).statusCode).toBe(200);
  });

  test.each([
    '/account/avatar/ada.png',
    '/account/avatar/Ada.svg',
    '/account/avatar/..%2Fada.svg',
    '/account/avatar/.svg',
  ])('%s → 404', async (url) => {
    expect((await get(url)).statusCode).toBe(404);
  });
});
