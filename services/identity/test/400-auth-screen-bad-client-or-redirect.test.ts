// Before the redirect_uri is trusted, every problem is an HTML error page for the person — never a
// redirect, which could send them (or a code) anywhere.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { screen, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
beforeAll(async () => {
  h = await startIndieAuthIdentity();
});
afterAll(() => h.stop());

const GOOD = { client_id: 'https://app.test/', redirect_uri: 'https://app.test/cb', state: 'x' };

async function expectErrorPage(params: Record<string, string>, text: string | RegExp) {
  const res = await screen(h, params);
  expect(res.statusCode).toBe(400);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.body).toContain('This sign-in request is not valid');
  expect(res.body).toMatch(text);
}

describe('GET /indieauth/auth → 400 HTML page, no redirect', () => {
  test.each([
    ['missing', undefined, 'client_id parameter is missing'],
    ['not a URL', 'app.test', 'must be an http or https URL'],
    ['another scheme', 'ftp://app.test/', 'must be an http or https URL'],
    ['with a fragment', 'https://app.test/#x', 'fragment'],
    ['with userinfo', 'https://user:pw@app.test/', 'user name or password'],
    ['with a dot segment', 'https://app.test/a/../b', '. or .. segments'],
    ['with an encoded dot segment', 'https://app.test/a/%2e%2e/b', '. or .. segments'],
    ['on a private IP literal', 'http://10.1.2.3/', 'must be a domain name'],
    ['on a public IP literal', 'https://93.184.216.34/', 'must be a domain name'],
    ['on an IPv6 literal other than ::1', 'http://[2001:db8::1]/', 'must be a domain name'],
  ])('client_id %s', async (_, clientId, text) => {
    const params: Record<string, string> = { ...GOOD };
    if (clientId === undefined) delete params.client_id;
    else params.client_id = clientId;
    await expectErrorPage(params, text);
  });

  test.each([
    ['missing', undefined, 'redirect_uri parameter is missing'],
    ['relative', '/cb', 'must be an absolute URL'],
    ['javascript:', 'javascript:alert(1)', 'may not use the javascript: scheme'],
    ['data:', 'data:text/html,hi', 'may not use the data: scheme'],
    ['with a fragment', 'https://app.test/cb#f', 'fragment'],
    ['with userinfo', 'https://u:p@app.test/cb', 'user name or password'],
  ])('redirect_uri %s', async (_, redirect, text) => {
    const params: Record<string, string> = { ...GOOD };
    if (redirect === undefined) delete params.redirect_uri;
    else params.redirect_uri = redirect;
    await expectErrorPage(params, text);
  });

  test('a redirect_uri on the same host but another port or scheme needs publishing too', async () => {
    await expectErrorPage({ ...GOOD, redirect_uri: 'https://app.test:8443/cb' }, 'does not publish it');
    await expectErrorPage({ ...GOOD, redirect_uri: 'http://app.test/cb' }, 'does not publish it');
  });

  test('an invalid client_id is checked before response_type or PKCE (no redirect for those either)', async () => {
    const res = await screen(h, {
      client_id: 'nope',
      redirect_uri: 'https://app.test/cb',
      response_type: 'token',
      code_challenge_method: 'plain',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  test('the page escapes what it repeats', async () => {
    const res = await screen(h, { client_id: 'https://app.test/', redirect_uri: '<script>x</script>' });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('<script>');
  });
});
