// The process's one authenticator: HTTP Basic next to Bearer, the failed-login throttle, the shared
// cache with its revocation guard, authentication before the body is read, and store-backed route
// limits keyed on the verified user.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { identity, SCOPES } from '@murmur/contracts';
import { connectBus, openStore } from '@murmur/runtime';
import type { Bus } from '@murmur/bus';
import { authenticatorOf } from '../src/app.js';
import { authOf, defineRoute, requireAuth } from '../src/route.js';
import { sha256Hex } from '@murmur/core';
import type { Store } from '@murmur/store';
import {
  basicAuth,
  eventually,
  startFakeIdentity,
  TestClock,
  testLogger,
  type FakeIdentity,
} from '@murmur/testing';
import { buildApp, send } from './helpers.js';

const QUARTER = 15 * 60_000;

let identityBus: Bus;
let serviceBus: Bus;
let store: Store;
let fake: FakeIdentity;
let app: FastifyInstance;
let handled = 0;
// Counters expire by the store's real clock, so the test clock runs ahead of it, at a window start.
const clock = new TestClock(Math.ceil(Date.now() / QUARTER) * QUARTER + QUARTER);

function routes(scope: FastifyInstance) {
  defineRoute(scope, {
    method: 'GET',
    url: '/feeds',
    auth: 'required',
    basic: true,
    scopes: ['read'],
    handler: async ({ auth }) => auth,
  });
  defineRoute(scope, {
    method: 'POST',
    url: '/feeds',
    auth: 'required',
    basic: true,
    scopes: ['follow'],
    handler: async () => {
      handled++;
      return { ok: true };
    },
  });
  defineRoute(scope, {
    method: 'GET',
    url: '/bearer-only',
    auth: 'required',
    handler: async ({ auth }) => ({ user: auth.username }),
  });
  defineRoute(scope, {
    method: 'GET',
    url: '/per-user',
    auth: 'required',
    rateLimit: { max: 2, windowMs: 60_000, key: 'user' },
    handler: async ({ auth }) => ({ user: auth.username }),
  });
  defineRoute(scope, {
    method: 'GET',
    url: '/per-ip',
    rateLimit: { max: 1, windowMs: 60_000, key: 'ip', message: 'Slow down.' },
    handler: async () => ({ ok: true }),
  });
  defineRoute(scope, {
    method: ['GET', 'POST'],
    url: '/micro',
    auth: 'required',
    tokenParam: true,
    rateLimit: { max: 1, windowMs: 60_000, key: 'user' },
    handler: async ({ auth }) => ({ user: auth.username }),
  });
  void scope.register(async (inner) => {
    requireAuth(inner, { basic: true, scopeOf: (method) => (method === 'GET' ? 'read' : 'follow') });
    defineRoute(inner, {
      method: ['GET', 'POST'],
      url: '/scoped',
      handler: async ({ request, auth }) => ({
        user: authOf(request)?.username ?? null,
        same: auth === authOf(request),
      }),
    });
  });
}

beforeAll(async () => {
  const url = `memory:basic-${randomUUID()}`;
  identityBus = await connectBus(url, { service: 'identity', logger: testLogger() });
  serviceBus = await connectBus(url, { service: 'reader', logger: testLogger() });
  fake = await startFakeIdentity(identityBus, {
    users: [
      { id: 1, username: 'ann', email: 'ann@example.com' },
      { id: 2, username: 'bob' },
      { id: 3, username: 'cy' },
    ],
    tokens: [
      { token: 'ann-app', userId: 1 },
      { token: 'ann-read', userId: 1, kind: 'indieauth', scopes: ['read'], clientId: 'https://app.example/' },
      { token: 'bob-app', userId: 2 },
      { token: 'cy-app', userId: 3 },
    ],
  });
  store = await openStore('memory:', { service: 'reader' });
  ({ app } = await buildApp(routes, {
    bus: serviceBus,
    store,
    clock,
    auth: { realm: 'service', failedLogins: { max: 3 } },
  }));
});

afterAll(async () => {
  await app.close();
  await fake.stop();
  await serviceBus.close();
  await identityBus.close();
  await store.close();
});

describe('HTTP Basic (login + app token) on routes that opt in', () => {
  it('a username and app token act as the app token: every scope', async () => {
    const res = await send(app, { url: '/feeds', headers: basicAuth('ann', 'ann-app') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      userId: 1,
      username: 'ann',
      kind: 'app',
      scopes: [...SCOPES],
      clientId: '',
      tokenHash: sha256Hex('ann-app'),
    });
  });

  it('an email works too, the scheme in any case, with extra blanks', async () => {
    const encoded = Buffer.from('ANN@example.com:ann-app').toString('base64');
    const res = await send(app, { url: '/feeds', headers: { authorization: `bAsIc \t ${encoded} ` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().userId).toBe(1);
  });

  it('bad logins → 401 with the realm Bearer challenge', async () => {
    for (const headers of [
      basicAuth('ann', 'wrong'),
      basicAuth('eve', 'ann-app'),
      basicAuth('ann', 'ann-read'),
      { authorization: `Basic ${Buffer.from('ann').toString('base64')}` },
      { authorization: 'Basic !!!' },
    ]) {
      const res = await send(app, { url: '/feeds', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="service"');
      expect(res.json()).toEqual({ error: 'The credentials are not valid.' });
    }
  });

  it('Bearer still works on the same route; scopes apply to it', async () => {
    expect(
      (await send(app, { url: '/feeds', headers: { authorization: 'Bearer ann-read' } })).statusCode,
    ).toBe(200);
    const post = await send(app, {
      method: 'POST',
      url: '/feeds',
      headers: { authorization: 'Bearer ann-read' },
      payload: { a: 1 },
    });
    expect(post.statusCode).toBe(403);
    expect(post.headers['www-authenticate']).toContain('insufficient_scope');
  });

  it('a route without `basic` ignores Basic: as if no credentials were sent', async () => {
    const res = await send(app, { url: '/bearer-only', headers: basicAuth('ann', 'ann-app') });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'A valid token is required.' });
  });

  it('a second request with the same login does not ask identity again', async () => {
    const before = fake.asked[identity.credentialsVerify.subject] ?? 0;
    for (let i = 0; i < 3; i++)
      expect((await send(app, { url: '/feeds', headers: basicAuth('cy', 'cy-app') })).statusCode).toBe(200);
    expect((fake.asked[identity.credentialsVerify.subject] ?? 0) - before).toBe(1);
  });
});

describe('authentication runs before the body is read', () => {
  it('a 1 MB body without credentials is answered 401, not 413, and reaches no handler', async () => {
    const res = await send(app, {
      method: 'POST',
      url: '/feeds',
      headers: { 'content-type': 'application/json' },
      payload: Buffer.alloc(1024 * 1024, 0x20),
    });
    expect(res.statusCode).toBe(401);
    expect(handled).toBe(0);
  });

  it('with credentials the same route reads its body', async () => {
    const res = await send(app, {
      method: 'POST',
      url: '/feeds',
      headers: basicAuth('ann', 'ann-app'),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(handled).toBe(1);
  });
});

describe('failed-login throttle', () => {
  it('after max failures of (login, address) even the right password gets 429 until the window ends', async () => {
    for (let i = 0; i < 3; i++)
      expect((await send(app, { url: '/feeds', headers: basicAuth('Bob', `guess-${i}`) })).statusCode).toBe(
        401,
      );
    const right = await send(app, { url: '/feeds', headers: basicAuth('bob', 'bob-app') });
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(right.json()).toEqual({ error: 'Too many failed logins. Try again later.' });
    // Bearer is not a login: the same user's token still works.
    expect(
      (await send(app, { url: '/feeds', headers: { authorization: 'Bearer bob-app' } })).statusCode,
    ).toBe(200);
    clock.advance(QUARTER);
    expect((await send(app, { url: '/feeds', headers: basicAuth('bob', 'bob-app') })).statusCode).toBe(200);
  });

  it('XML-RPC-style logins use the same throttle through authenticatorOf(app)', async () => {
    const authenticator = authenticatorOf(app);
    const ctx = { ip: '192.0.2.7', headers: { 'x-request-id': 'xmlrpc-1' } };
    expect(await authenticator.verifyCredentials('cy', 'cy-app', ctx)).toMatchObject({
      userId: 3,
      kind: 'app',
    });
    for (let i = 0; i < 3; i++) expect(await authenticator.verifyCredentials(' CY ', 'nope', ctx)).toBeNull();
    await expect(authenticator.verifyCredentials('cy', 'cy-app', ctx)).rejects.toMatchObject({ status: 429 });
    // Another address is another key.
    expect(await authenticator.verifyCredentials('cy', 'cy-app', { ...ctx, ip: '192.0.2.8' })).not.toBeNull();
  });
});

describe('revocations', () => {
  it('a revoked app token stops working as a Basic password at once', async () => {
    const { token } = fake.addToken({ userId: 2 });
    expect((await send(app, { url: '/feeds', headers: basicAuth('bob', token) })).statusCode).toBe(200);
    await fake.revoke(token);
    await eventually(async () => {
      const res = await send(app, { url: '/feeds', headers: basicAuth('bob', token) });
      return res.statusCode === 401 ? true : undefined;
    }, 3000);
  });
});

describe('scope-wide authentication (requireAuth)', () => {
  it('every route of the scope needs credentials; scopeOf picks the scope per method', async () => {
    expect((await send(app, { url: '/scoped' })).statusCode).toBe(401);
    expect((await send(app, { url: '/scoped', headers: basicAuth('ann', 'ann-app') })).json()).toEqual({
      user: 'ann',
      same: true,
    });
    const auth = { authorization: 'Bearer ann-read' };
    expect((await send(app, { url: '/scoped', headers: auth })).statusCode).toBe(200);
    expect((await send(app, { method: 'POST', url: '/scoped', headers: auth, payload: {} })).statusCode).toBe(
      403,
    );
  });
});

describe('store-backed route limits', () => {
  it('key: user counts the verified user, whatever the spelling of the header', async () => {
    const spellings = ['Bearer ann-app', 'bEaReR   ann-app', '\tBEARER\tann-app  '];
    const statuses = [];
    for (const authorization of spellings)
      statuses.push((await send(app, { url: '/per-user', headers: { authorization } })).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    // Another token of the same user is the same user.
    const other = await send(app, { url: '/per-user', headers: { authorization: 'Bearer ann-read' } });
    expect(other.statusCode).toBe(429);
    expect(Number(other.headers['retry-after'])).toBeGreaterThan(0);
    // Another user has her own count.
    expect(
      (await send(app, { url: '/per-user', headers: { authorization: 'Bearer cy-app' } })).statusCode,
    ).toBe(200);
  });

  it('an access_token parameter counts toward the same user as the header', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const first = await send(app, {
      method: 'POST',
      url: '/micro',
      headers: form,
      payload: 'access_token=bob-app',
    });
    expect(first.json()).toEqual({ user: 'bob' });
    const second = await send(app, { url: '/micro', headers: { authorization: 'Bearer bob-app' } });
    expect(second.statusCode).toBe(429);
    expect((await send(app, { url: '/micro?access_token=nope' })).statusCode).toBe(401);
  });

  it('key: ip counts the client address, with the route message', async () => {
    expect((await send(app, { url: '/per-ip' })).statusCode).toBe(200);
    const res = await send(app, { url: '/per-ip' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ error: 'Slow down.' });
    expect(res.headers['retry-after']).toBeDefined();
  });
});
