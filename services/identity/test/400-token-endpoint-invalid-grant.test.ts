// Code redemption refuses every code that is not exactly the one issued, for exactly this client,
// once, within ten minutes, with the right PKCE verifier — and a refused code is burnt.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { authorizationCode, pkcePair, postForm, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

const CLIENT = 'https://app.test/';
const REDIRECT = 'https://app.test/cb';
let h: Harness;
let cookie: string;

beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(() => h.stop());

const base = { client_id: CLIENT, redirect_uri: REDIRECT, state: 's', scope: 'create' };
const redeem = (fields: Record<string, string>, path = '/indieauth/token') =>
  postForm(h, path, {
    grant_type: 'authorization_code',
    client_id: CLIENT,
    redirect_uri: REDIRECT,
    ...fields,
  });

function expectOAuthError(
  res: { statusCode: number; headers: Record<string, unknown>; json(): any },
  error: string,
) {
  expect(res.statusCode).toBe(400);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.json()).toEqual({ error, error_description: expect.any(String) });
}

async function pkceCode() {
  const { verifier, challenge } = pkcePair();
  const code = await authorizationCode(h, cookie, {
    ...base,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return { code, verifier };
}

describe('POST /indieauth/token → 400 invalid_grant', () => {
  test('a second redemption fails, and the token from the first one stops working', async () => {
    const { code, verifier } = await pkceCode();
    const first = await redeem({ code, code_verifier: verifier });
    expect(first.statusCode).toBe(200);
    const token = first.json().access_token as string;
    const bearer = { authorization: `Bearer ${token}` };
    expect((await h.inject({ url: '/indieauth/token', headers: bearer })).statusCode).toBe(200);

    expectOAuthError(await redeem({ code, code_verifier: verifier }), 'invalid_grant');
    const after = await h.inject({ url: '/indieauth/token', headers: bearer });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('invalid_token');
  });

  test('a code older than ten minutes', async () => {
    const { code, verifier } = await pkceCode();
    h.clock.advance(10 * 60_000 + 1_000);
    expectOAuthError(await redeem({ code, code_verifier: verifier }), 'invalid_grant');
  });

  test('an unknown code', async () => {
    expectOAuthError(await redeem({ code: 'A'.repeat(43) }), 'invalid_grant');
  });

  test.each([
    ['another client_id', { client_id: 'https://evil.test/' }],
    ['another redirect_uri', { redirect_uri: 'https://app.test/other' }],
    ['a wrong verifier', { code_verifier: pkcePair().verifier }],
    ['no verifier for a PKCE code', { code_verifier: undefined }],
    ['a malformed verifier', { code_verifier: 'short' }],
  ] as Array<[string, Record<string, string | undefined>]>)(
    '%s — and the code is burnt: the right request fails afterwards',
    async (_, change) => {
      const { code, verifier } = await pkceCode();
      const fields: Record<string, string> = { code, code_verifier: verifier };
      for (const [k, v] of Object.entries(change)) {
        if (v === undefined) delete fields[k];
        else fields[k] = v;
      }
      expectOAuthError(await redeem(fields), 'invalid_grant');
      expectOAuthError(await redeem({ code, code_verifier: verifier }), 'invalid_grant');
    },
  );

  test('a verifier for a code approved without PKCE', async () => {
    const code = await authorizationCode(h, cookie, base);
    expectOAuthError(await redeem({ code, code_verifier: pkcePair().verifier }), 'invalid_grant');
  });

  test('POST /indieauth/auth refuses the same way', async () => {
    const { code } = await pkceCode();
    expectOAuthError(
      await redeem({ code, code_verifier: pkcePair().verifier }, '/indieauth/auth'),
      'invalid_grant',
    );
  });
});

describe('POST /indieauth/token → other errors', () => {
  test.each(['code', 'client_id', 'redirect_uri'])('missing %s → 400 invalid_request', async (name) => {
    const { code, verifier } = await pkceCode();
    const fields: Record<string, string> = {
      code,
      code_verifier: verifier,
      client_id: CLIENT,
      redirect_uri: REDIRECT,
    };
    delete fields[name];
    const res = await postForm(h, '/indieauth/token', fields);
    expectOAuthError(res, 'invalid_request');
    expect(res.json().error_description).toContain(name);
  });

  test('grant_type=password → 400 unsupported_grant_type', async () => {
    const { code, verifier } = await pkceCode();
    expectOAuthError(
      await redeem({ code, code_verifier: verifier, grant_type: 'password' }),
      'unsupported_grant_type',
    );
  });
});
