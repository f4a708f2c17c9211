// PKCE is required unless the operator opts out (INDIEAUTH_REQUIRE_PKCE=false): without a challenge
// an intercepted code could be redeemed by whoever holds it. The metadata document says which.
import { afterEach, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';
import { pkcePair, screen, startIndieAuthIdentity } from './indieauth.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const NO_PKCE = {
  client_id: 'https://app.test/',
  redirect_uri: 'https://app.test/cb',
  state: 's',
  scope: 'create',
};
const metadata = async () => (await h!.inject({ url: '/.well-known/oauth-authorization-server' })).json();

describe('INDIEAUTH_REQUIRE_PKCE (default true)', () => {
  test('a request without code_challenge → 302 invalid_request naming PKCE, with state and iss', async () => {
    h = await startIndieAuthIdentity({ INDIEAUTH_REQUIRE_PKCE: 'true' });
    const res = await screen(h, NO_PKCE);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe('https://app.test/cb');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('PKCE');
    expect(location.searchParams.get('state')).toBe('s');
    expect(location.searchParams.get('iss')).toBe('http://murmur.test/');
  });

  test('with a S256 challenge → the screen', async () => {
    h = await startIndieAuthIdentity({ INDIEAUTH_REQUIRE_PKCE: 'true' });
    const { challenge } = pkcePair();
    const res = await screen(h, { ...NO_PKCE, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(res.statusCode).toBe(200);
  });

  test('the metadata says PKCE is required, with S256', async () => {
    h = await startIndieAuthIdentity({ INDIEAUTH_REQUIRE_PKCE: 'true' });
    expect(await metadata()).toMatchObject({
      code_challenge_methods_supported: ['S256'],
      require_pkce: true,
    });
  });

  test('the default, with no variable set, is required', async () => {
    h = await startIdentity();
    expect((await metadata()).require_pkce).toBe(true);
  });

  test('opted out → a request without PKCE opens the screen, and the metadata says so', async () => {
    h = await startIndieAuthIdentity({ INDIEAUTH_REQUIRE_PKCE: 'false' });
    expect((await screen(h, NO_PKCE)).statusCode).toBe(200);
    expect((await metadata()).require_pkce).toBe(false);
  });
});
