// POST /indieauth/approve: with a session and the form's CSRF token, the browser goes back to the
// client with code, the exact state and iss — or with error=access_denied when the person says no.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import {
  approve,
  hiddenField,
  postForm,
  screen,
  signInBrowser,
  startClientSites,
  startIndieAuthIdentity,
  type ClientSites,
} from './indieauth.js';

let h: Harness;
let sites: ClientSites;
let cookie: string;
beforeAll(async () => {
  sites = await startClientSites();
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(async () => {
  await h.stop();
  await sites.stop();
});

const CLIENT = 'https://app.test/';
const STATE = 'Zx9 &?=/+%é';

describe('POST /indieauth/approve', () => {
  test('approved → 302 to redirect_uri with code, exact state and iss (existing query kept)', async () => {
    const location = await approve(h, cookie, {
      client_id: CLIENT,
      redirect_uri: 'https://app.test/cb?from=murmur',
      state: STATE,
      scope: 'create',
    });
    expect(`${location.origin}${location.pathname}`).toBe('https://app.test/cb');
    expect(location.searchParams.get('from')).toBe('murmur');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe(STATE);
    expect(location.searchParams.get('iss')).toBe('http://murmur.test/');
  });

  test('iss equals the metadata issuer', async () => {
    const meta = (await h.inject({ url: '/.well-known/oauth-authorization-server' })).json();
    const location = await approve(h, cookie, { client_id: CLIENT, redirect_uri: 'https://app.test/cb' });
    expect(location.searchParams.get('iss')).toBe(meta.issuer);
  });

  test('no state sent → none in the redirect', async () => {
    const location = await approve(h, cookie, { client_id: CLIENT, redirect_uri: 'https://app.test/cb' });
    expect(location.searchParams.has('state')).toBe(false);
    expect(location.searchParams.has('code')).toBe(true);
  });

  test('a custom-scheme redirect published by the client (reader apps) → app://signin?code=…', async () => {
    sites.serve('mobile.test', '/', { headers: { link: '<app://signin>; rel="redirect_uri"' } });
    const location = await approve(h, cookie, {
      client_id: sites.url('mobile.test', '/'),
      redirect_uri: 'app://signin',
      state: 'm',
      scope: 'create',
    });
    expect(location.protocol).toBe('app:');
    expect(location.host).toBe('signin');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('m');
  });

  test('deny → 302 with error=access_denied, state and iss, and no code', async () => {
    const location = await approve(
      h,
      cookie,
      { client_id: CLIENT, redirect_uri: 'https://app.test/cb', state: STATE, scope: 'create' },
      { deny: true },
    );
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(STATE);
    expect(location.searchParams.get('iss')).toBe('http://murmur.test/');
    expect(location.searchParams.has('code')).toBe(false);
  });

  test('one screen yields one answer: approving the same request twice → 400 the second time', async () => {
    const page = await screen(h, { client_id: CLIENT, redirect_uri: 'https://app.test/cb' }, cookie);
    const fields = { request: hiddenField(page.body, 'request'), csrf: hiddenField(page.body, 'csrf') };
    expect((await postForm(h, '/indieauth/approve', fields, { cookie })).statusCode).toBe(302);
    const again = await postForm(h, '/indieauth/approve', fields, { cookie });
    expect(again.statusCode).toBe(400);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
  });
});
