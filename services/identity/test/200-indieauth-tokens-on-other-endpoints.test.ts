// IndieAuth access tokens are Bearer tokens of every service: identity answers identity.token.verify
// for them with their scopes, and the platform's scope rules apply (create ⊇ read, follow).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity } from '@murmur/contracts';
import type { Harness } from './harness.js';
import { authorizationCode, postForm, signInBrowser, startIndieAuthIdentity } from './indieauth.js';

const CLIENT = 'https://micropub.test/';
const REDIRECT = 'https://micropub.test/cb';
let h: Harness;
let cookie: string;

beforeAll(async () => {
  h = await startIndieAuthIdentity();
  await h.createUser('ada', 'ada@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(() => h.stop());

async function tokenWith(scope: string): Promise<string> {
  const code = await authorizationCode(h, cookie, { client_id: CLIENT, redirect_uri: REDIRECT, scope });
  return (await postForm(h, '/indieauth/token', { code, client_id: CLIENT, redirect_uri: REDIRECT })).json()
    .access_token as string;
}

describe('IndieAuth tokens across services', () => {
  test('identity.token.verify → kind indieauth, the granted scopes, the client id', async () => {
    const token = await tokenWith('create update');
    const answer = await h.bus.request(identity.tokenVerify, { token });
    expect(answer).toEqual({
      active: true,
      userId: 1,
      username: 'ada',
      kind: 'indieauth',
      scopes: ['create', 'update'],
      clientId: CLIENT,
      tokenHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  test('GET /account/me needs profile or read: a profile, read or create token works', async () => {
    for (const scope of ['profile', 'read', 'create']) {
      const res = await h.inject({
        url: '/account/me',
        headers: { authorization: `Bearer ${await tokenWith(scope)}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ username: 'ada' });
    }
  });

  test('GET /account/me with an update-only token → 403 insufficient_scope', async () => {
    const res = await h.inject({
      url: '/account/me',
      headers: { authorization: `Bearer ${await tokenWith('update')}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toContain('insufficient_scope');
  });
});
