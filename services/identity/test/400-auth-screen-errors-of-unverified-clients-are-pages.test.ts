// A bad response_type or PKCE parameter is sent back to the client's redirect_uri only once that
// redirect_uri is known to be the client's: on the client_id's own scheme, host and port, or published
// at its client_id (IndieAuth "Redirect URL"). A redirect_uri elsewhere that the client does not
// publish gets the 400 error page, whatever else is wrong — otherwise a crafted link to this server
// would bounce the browser to any site (an open redirector) before the person saw anything. (The
// same-origin and loopback cases: 302-auth-screen-errors-go-back-to-the-clients-redirect-uri.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { screen, startClientSites, startIndieAuthIdentity, type ClientSites } from './indieauth.js';

let h: Harness;
let sites: ClientSites;
beforeAll(async () => {
  sites = await startClientSites();
  h = await startIndieAuthIdentity();
});
afterAll(async () => {
  await h.stop();
  await sites.stop();
});

function expectErrorPage(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode).toBe(400);
  expect(res.headers.location).toBeUndefined();
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
  expect(res.body).toContain('This sign-in request is not valid');
}

const BAD = [
  ['response_type=token', { response_type: 'token' }],
  ['code_challenge_method=plain', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }],
] as const;

describe('GET /indieauth/auth with a bad parameter', () => {
  test.each(BAD)('%s, redirect_uri on another host, client publishes nothing → 400 page', async (_, bad) => {
    // Nothing is served at phish.test: the client cannot be checked.
    const res = await screen(h, {
      client_id: 'https://phish.test/',
      redirect_uri: 'https://victim.test/landing',
      state: 's',
      ...bad,
    });
    expectErrorPage(res);
  });

  test.each(BAD)('%s, loopback client, redirect_uri on another port → 400 page', async (_, bad) => {
    const res = await screen(h, {
      client_id: 'http://127.0.0.1:9/app/',
      redirect_uri: 'http://127.0.0.1:10/app/cb',
      ...bad,
    });
    expectErrorPage(res);
  });

  test.each(BAD)(
    '%s, client page that does not list this redirect_uri (another origin) → 400 page',
    async (_, bad) => {
      const clientId = sites.url('partial.test', '/');
      sites.serve('partial.test', '/', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: clientId, redirect_uris: [sites.url('partial.test', '/other')] }),
      });
      const res = await screen(h, {
        client_id: clientId,
        redirect_uri: sites.url('elsewhere.test', '/cb'),
        ...bad,
      });
      expectErrorPage(res);
    },
  );

  test.each(BAD)('%s, client that publishes the redirect_uri → 302 with the OAuth error', async (_, bad) => {
    const clientId = sites.url('verified.test', '/');
    sites.serve('verified.test', '/', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, redirect_uris: ['app://verified/cb'] }),
    });
    const res = await screen(h, {
      client_id: clientId,
      redirect_uri: 'app://verified/cb',
      state: 's',
      ...bad,
    });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.protocol).toBe('app:');
    expect(location.searchParams.get('error')).toMatch(/^(unsupported_response_type|invalid_request)$/);
    expect(location.searchParams.get('state')).toBe('s');
  });
});
