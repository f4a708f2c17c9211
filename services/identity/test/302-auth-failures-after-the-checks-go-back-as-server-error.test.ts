// A failure of this server once the client and its redirect_uri are checked is still an answer the
// client must get (RFC 6749 §4.1.2.1: "server_error — The authorization server encountered an
// unexpected condition that prevented it from fulfilling the request. (This error code is needed
// because a 500 Internal Server Error HTTP status code cannot be returned to the client via an HTTP
// redirect.)"), with state and iss. And the person's "Deny" is `access_denied` ("The resource owner or
// authorization server denied the request"), with a description.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Collection, Store } from '@murmur/store';
import { startIdentity, type Harness } from './harness.js';
import { approve, hiddenField, postForm, resolveTestHosts, screen, signInBrowser } from './indieauth.js';

/** Collections whose inserts fail while named here. */
const failingInserts = new Set<string>();

function failingStore(store: Store): Store {
  const wrapCollection = (name: string, collection: Collection) =>
    new Proxy(collection, {
      get(target, prop) {
        if (prop === 'insertOne' && failingInserts.has(name)) {
          return () => Promise.reject(new Error(`test: ${name} unavailable`));
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'collection') {
        return (name: string, options?: unknown) =>
          wrapCollection(name, (target.collection as (n: string, o?: unknown) => Collection)(name, options));
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

let h: Harness;
let cookie: string;
beforeAll(async () => {
  h = await startIdentity(
    { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', INDIEAUTH_REQUIRE_PKCE: 'false' },
    { resolve: resolveTestHosts, wrapStore: failingStore },
  );
  await h.createUser('ada', 'ada@example.com');
  cookie = await signInBrowser(h, 'ada@example.com');
});
afterAll(() => h.stop());

const PARAMS = {
  client_id: 'https://app.test/',
  redirect_uri: 'https://app.test/cb',
  state: 'st 1',
  scope: 'create',
};

function expectError(location: URL, error: string) {
  expect(`${location.origin}${location.pathname}`).toBe('https://app.test/cb');
  expect(location.searchParams.get('error')).toBe(error);
  expect(location.searchParams.get('error_description')).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/);
  expect(location.searchParams.get('state')).toBe('st 1');
  expect(location.searchParams.get('iss')).toBe('http://murmur.test/');
  expect(location.searchParams.has('code')).toBe(false);
}

describe('POST /indieauth/approve', () => {
  test('Deny → 302 access_denied with a description, state and iss', async () => {
    expectError(await approve(h, cookie, PARAMS, { deny: true }), 'access_denied');
  });

  test('Approve, and the code cannot be stored → 302 server_error (the request was used up)', async () => {
    const page = await screen(h, PARAMS, cookie);
    expect(page.statusCode).toBe(200);
    const fields = { request: hiddenField(page.body, 'request'), csrf: hiddenField(page.body, 'csrf') };
    failingInserts.add('indieauth_codes');
    try {
      const res = await postForm(h, '/indieauth/approve', fields, { cookie });
      expect(res.statusCode).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
      expectError(new URL(String(res.headers.location)), 'server_error');
    } finally {
      failingInserts.delete('indieauth_codes');
    }
  });
});

describe('GET /indieauth/auth', () => {
  test('a checked request that cannot be stored → 302 server_error', async () => {
    failingInserts.add('indieauth_requests');
    try {
      const res = await screen(h, PARAMS, cookie);
      expect(res.statusCode).toBe(302);
      expectError(new URL(String(res.headers.location)), 'server_error');
    } finally {
      failingInserts.delete('indieauth_requests');
    }
  });

  test('the same request once the store is back → the consent screen', async () => {
    expect((await screen(h, PARAMS, cookie)).statusCode).toBe(200);
  });
});
