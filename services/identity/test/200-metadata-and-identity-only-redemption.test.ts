// Discovery metadata, and POST /indieauth/auth: the identity-only redemption older clients use.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { authorizationCode, postForm, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
let cookie: string;
beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(() => h.stop());

describe('GET /.well-known/oauth-authorization-server', () => {
  test('→ 200 JSON with issuer, endpoints, S256 and the supported scopes', async () => {
    const res = await h.inject({
      url: '/.well-known/oauth-authorization-server',
      headers: { host: 'forged.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      issuer: 'http://murmur.test/',
      authorization_endpoint: 'http://murmur.test/indieauth/auth',
      token_endpoint: 'http://murmur.test/indieauth/token',
      introspection_endpoint: 'http://murmur.test/indieauth/introspect',
      introspection_endpoint_auth_methods_supported: ['Bearer'],
      revocation_endpoint: 'http://murmur.test/indieauth/revoke',
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [
        'profile',
        'read',
        'follow',
        'create',
        'update',
        'channels',
        'delete',
        'media',
        'draft',
      ],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      // This harness opted out of the PKCE requirement (400-auth-screen-pkce-required-by-default tests `true`).
      require_pkce: false,
      authorization_response_iss_parameter_supported: true,
    });
  });

  test('an unknown /indieauth/ path → 404 in OAuth shape', async () => {
    const res = await h.inject({ url: '/indieauth/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', error_description: expect.any(String) });
  });
});

describe('POST /indieauth/auth', () => {
  test('→ {me, profile} only, never a token, even for a code with scope; the code is used up', async () => {
    const params = { client_id: 'https://old.test/', redirect_uri: 'https://old.test/cb', scope: 'create' };
    const code = await authorizationCode(h, cookie, params);
    const fields = { code, client_id: params.client_id, redirect_uri: params.redirect_uri };
    const res = await postForm(h, '/indieauth/auth', fields);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      me: 'http://murmur.test/ada/',
      profile: {
        name: 'ada',
        url: 'http://murmur.test/ada/',
        photo: 'http://murmur.test/account/avatar/ada.svg',
        nickname: 'ada',
      },
    });
    expect((await postForm(h, '/indieauth/auth', fields)).json().error).toBe('invalid_grant');
  });
});
