// Once client_id and redirect_uri are checked (the redirect_uri is on the client_id's scheme, host and
// port, or the client publishes it), every other problem of an authorization request goes back to the
// client — otherwise the app waits forever. RFC 6749 §4.1.2.1: "If the resource owner denies the access
// request or if the request fails for reasons other than a missing or invalid redirection URI, the
// authorization server informs the client by adding the following parameters to the query component of
// the redirection URI": `error` (one code), `error_description` (optional, ASCII without `"` and `\`),
// `state` ("REQUIRED if a "state" parameter was present in the client authorization request. The exact
// value received from the client."). IndieAuth §5.2 and RFC 9207 add `iss`, the issuer of the metadata,
// to every authorization response, errors included. The error page stays for a client_id or
// redirect_uri that is missing, invalid or not the client's (400-auth-screen-*.test.ts).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { pkcePair, screen, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
let issuer: string;
beforeAll(async () => {
  // The default: PKCE required. Nothing is served at app.test, so the client publishes nothing; its
  // redirect_uri is trusted because it is on the client_id's own origin.
  h = await startIndieAuthIdentity({ INDIEAUTH_REQUIRE_PKCE: 'true' });
  issuer = (await h.inject({ url: '/.well-known/oauth-authorization-server' })).json().issuer;
});
afterAll(() => h.stop());

const STATE = 'st&te =/?';
const { challenge } = pkcePair();
const GOOD = {
  client_id: 'https://app.test/',
  redirect_uri: 'https://app.test/cb?keep=1',
  state: STATE,
  response_type: 'code',
  scope: 'create',
  code_challenge: challenge,
  code_challenge_method: 'S256',
};

/** RFC 6749 §4.1.2.1: error_description is limited to %x20-21 / %x23-5B / %x5D-7E. */
const DESCRIPTION_CHARS = /^[\x20\x21\x23-\x5B\x5D-\x7E]+$/;

async function expectErrorRedirect(
  query: string,
  error: string,
  options: { state?: string | null; redirect?: string } = {},
): Promise<URL> {
  const res = await h.inject({ method: 'GET', url: `/indieauth/auth?${query}` });
  expect({ status: res.statusCode, body: res.statusCode === 302 ? '' : res.body }).toEqual({
    status: 302,
    body: '',
  });
  expect(res.headers['cache-control']).toBe('no-store');
  const location = new URL(String(res.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(options.redirect ?? 'https://app.test/cb');
  if (options.redirect === undefined) expect(location.searchParams.get('keep')).toBe('1');
  expect(location.searchParams.get('error')).toBe(error);
  expect(location.searchParams.get('error_description')).toMatch(DESCRIPTION_CHARS);
  const state = options.state === undefined ? STATE : options.state;
  if (state === null) expect(location.searchParams.has('state')).toBe(false);
  else expect(location.searchParams.get('state')).toBe(state);
  expect(location.searchParams.get('iss')).toBe(issuer);
  expect(location.searchParams.has('code')).toBe(false);
  return location;
}

const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries({ ...GOOD, ...params }).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();

describe('GET /indieauth/auth, client_id and redirect_uri checked, something else wrong → 302 to redirect_uri', () => {
  test('the good request itself opens the screen (200)', async () => {
    expect((await screen(h, GOOD)).statusCode).toBe(200);
  });

  test('response_type=token → unsupported_response_type', async () => {
    await expectErrorRedirect(query({ response_type: 'token' }), 'unsupported_response_type');
  });

  test('response_type of another word → unsupported_response_type', async () => {
    await expectErrorRedirect(query({ response_type: 'code id_token' }), 'unsupported_response_type');
  });

  test('no code_challenge while PKCE is required → invalid_request', async () => {
    await expectErrorRedirect(
      query({ code_challenge: undefined, code_challenge_method: undefined }),
      'invalid_request',
    );
  });

  test('code_challenge_method=plain → invalid_request', async () => {
    await expectErrorRedirect(query({ code_challenge_method: 'plain' }), 'invalid_request');
  });

  test('an unknown code_challenge_method → invalid_request', async () => {
    await expectErrorRedirect(query({ code_challenge_method: 'S512' }), 'invalid_request');
  });

  test('a code_challenge without a method (RFC 7636: that means plain) → invalid_request', async () => {
    await expectErrorRedirect(query({ code_challenge_method: undefined }), 'invalid_request');
  });

  test('a malformed code_challenge (not 43 base64url characters) → invalid_request', async () => {
    await expectErrorRedirect(query({ code_challenge: 'too-short' }), 'invalid_request');
    await expectErrorRedirect(query({ code_challenge: `${challenge.slice(0, 42)}=` }), 'invalid_request');
  });

  test('a malformed scope (RFC 6749 §3.3: scope tokens are %x21 / %x23-5B / %x5D-7E) → invalid_scope', async () => {
    await expectErrorRedirect(query({ scope: 'create "quoted"' }), 'invalid_scope');
    await expectErrorRedirect(query({ scope: 'créer' }), 'invalid_scope');
  });

  test('a parameter sent twice (RFC 6749 §3.1) → invalid_request', async () => {
    await expectErrorRedirect(`${query({})}&scope=read`, 'invalid_request');
  });

  test('state sent twice → invalid_request, and no state echoed (there is no one value to return)', async () => {
    await expectErrorRedirect(`${query({})}&state=other`, 'invalid_request', { state: null });
  });

  test('a parameter over 2048 characters → invalid_request', async () => {
    await expectErrorRedirect(query({ scope: `create ${'x'.repeat(2048)}` }), 'invalid_request');
    await expectErrorRedirect(query({ me: `https://ada.example/${'x'.repeat(2048)}` }), 'invalid_request');
  });

  test('state over 2048 characters → invalid_request without echoing it', async () => {
    await expectErrorRedirect(query({ state: 's'.repeat(2049) }), 'invalid_request', { state: null });
  });

  test('no state sent → the error carries none', async () => {
    await expectErrorRedirect(
      query({ state: undefined, response_type: 'token' }),
      'unsupported_response_type',
      {
        state: null,
      },
    );
  });

  test('a loopback client (never fetched, same origin) → the error goes back to it too', async () => {
    await expectErrorRedirect(
      query({
        client_id: 'http://127.0.0.1:9/app/',
        redirect_uri: 'http://127.0.0.1:9/app/cb',
        response_type: 'token',
      }),
      'unsupported_response_type',
      { redirect: 'http://127.0.0.1:9/app/cb' },
    );
  });
});

describe('GET /indieauth/auth, client_id or redirect_uri not checked → still the 400 page', () => {
  test.each([
    ['client_id missing', { client_id: undefined }],
    ['client_id malformed', { client_id: 'app.test' }],
    ['redirect_uri missing', { redirect_uri: undefined }],
    ['redirect_uri on another host, unpublished', { redirect_uri: 'https://elsewhere.test/cb' }],
  ])('%s, with response_type=token as well → 400 page, no redirect', async (_, params) => {
    const res = await h.inject({ url: `/indieauth/auth?${query({ ...params, response_type: 'token' })}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('This sign-in request is not valid');
  });

  test('client_id sent twice → 400 page (which one would be the client?)', async () => {
    const res = await h.inject({ url: `/indieauth/auth?${query({})}&client_id=https://other.test/` });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  test('redirect_uri sent twice → 400 page', async () => {
    const res = await h.inject({ url: `/indieauth/auth?${query({})}&redirect_uri=https://app.test/other` });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });
});
