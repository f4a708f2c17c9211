import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { identity } from '@murmur/contracts';
import { connectBus } from '@murmur/runtime';
import type { Bus } from '@murmur/bus';
import { defineRoute } from '../src/route.js';
import { sha256Hex } from '@murmur/core';
import { testLogger } from '@murmur/testing';
import { buildApp, send, sleep } from './helpers.js';

type Grant = { kind: 'app' | 'indieauth'; scopes: string[] };
const grants: Record<string, Grant> = {
  'tok-app': { kind: 'app', scopes: [] },
  'tok-read': { kind: 'indieauth', scopes: ['read'] },
  'tok-create': { kind: 'indieauth', scopes: ['create'] },
  'tok-profile': { kind: 'indieauth', scopes: ['profile'] },
};
const revoked = new Set<string>();
const asked: Array<{ token: string; requestId: string | undefined }> = [];

let identityBus: Bus;
let serviceBus: Bus;
let app: FastifyInstance;

function addRoutes(scope: FastifyInstance) {
  defineRoute(scope, {
    method: 'GET',
    url: '/me',
    auth: 'required',
    handler: async ({ auth }) => auth,
  });
  defineRoute(scope, {
    method: 'GET',
    url: '/follow',
    auth: 'required',
    scopes: ['follow'],
    handler: async ({ auth }) => ({ userId: auth.userId }),
  });
  defineRoute(scope, {
    method: 'GET',
    url: '/public',
    auth: 'optional',
    handler: async ({ auth }) => ({ user: auth?.username ?? null }),
  });
  defineRoute(scope, {
    method: ['GET', 'POST'],
    url: '/microsub',
    auth: 'required',
    scopes: ['read'],
    tokenParam: true,
    errorStyle: 'oauth',
    handler: async ({ auth }) => ({ user: auth.username }),
  });
}

beforeAll(async () => {
  const url = `memory:auth-${randomUUID()}`;
  identityBus = await connectBus(url, { service: 'identity', logger: testLogger() });
  serviceBus = await connectBus(url, { service: 'reader', logger: testLogger() });
  await identityBus.handle(identity.tokenVerify, async ({ token }, ctx) => {
    asked.push({ token, requestId: ctx.headers['x-request-id'] });
    const grant = grants[token];
    if (!grant || revoked.has(token)) return { active: false as const };
    return {
      active: true as const,
      userId: 7,
      username: 'ada',
      kind: grant.kind,
      scopes: grant.scopes,
      clientId: grant.kind === 'app' ? '' : 'https://app.example/',
      tokenHash: sha256Hex(token),
    };
  });
  ({ app } = await buildApp(addRoutes, { bus: serviceBus }));
});

afterAll(async () => {
  await app.close();
  await serviceBus.close();
  await identityBus.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('Bearer authentication', () => {
  it('a valid token reaches the handler with who and what', async () => {
    const res = await send(app, { url: '/me', headers: { ...bearer('tok-read'), 'x-request-id': 'auth-1' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      userId: 7,
      username: 'ada',
      kind: 'indieauth',
      scopes: ['read'],
      clientId: 'https://app.example/',
      tokenHash: sha256Hex('tok-read'),
    });
    expect(asked.find((a) => a.token === 'tok-read')?.requestId).toBe('auth-1');
  });

  it('the scheme is case-insensitive', async () => {
    expect((await send(app, { url: '/me', headers: { authorization: 'bearer tok-app' } })).statusCode).toBe(
      200,
    );
  });

  it.each([
    ['no header', {}],
    ['an unknown token', bearer('nope')],
    ['another scheme', { authorization: 'Basic dTpw' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
  ])('%s → 401 with WWW-Authenticate: Bearer realm="murmur"', async (_case, headers) => {
    const res = await send(app, { url: '/me', headers });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="murmur"');
    expect(res.json().error).toMatch(/token/);
  });

  it('oauth-style areas get the OAuth codes', async () => {
    const missing = await send(app, { url: '/microsub' });
    expect(missing.json()).toEqual({
      error: 'unauthorized',
      error_description: 'A valid token is required.',
    });
    const invalid = await send(app, { url: '/microsub', headers: bearer('nope') });
    expect(invalid.json()).toEqual({ error: 'invalid_token', error_description: 'The token is not valid.' });
  });

  it('optional auth: anonymous is fine, a bad token is not', async () => {
    expect((await send(app, { url: '/public' })).json()).toEqual({ user: null });
    // Another scheme is not a token of ours (e.g. Basic added by a proxy in front).
    expect((await send(app, { url: '/public', headers: { authorization: 'Basic dTpw' } })).json()).toEqual({
      user: null,
    });
    expect((await send(app, { url: '/public', headers: bearer('tok-app') })).json()).toEqual({ user: 'ada' });
    expect((await send(app, { url: '/public', headers: bearer('nope') })).statusCode).toBe(401);
  });

  it('access_token as a parameter where the route allows it', async () => {
    expect((await send(app, { url: '/microsub?access_token=tok-read' })).json()).toEqual({ user: 'ada' });
    const form = await send(app, {
      url: '/microsub',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'access_token=tok-create&action=channels',
    });
    expect(form.json()).toEqual({ user: 'ada' });
    expect((await send(app, { url: '/me?access_token=tok-read' })).statusCode).toBe(401);
  });
});

describe('scopes', () => {
  it('a token without the scope → 403 insufficient_scope', async () => {
    const res = await send(app, { url: '/follow', headers: bearer('tok-read') });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'The token does not grant the "follow" scope.' });
    const oauth = await send(app, { url: '/microsub', headers: bearer('tok-profile') });
    expect(oauth.statusCode).toBe(403);
    expect(oauth.json()).toEqual({
      error: 'insufficient_scope',
      error_description: 'The token does not grant the "read" scope.',
      scope: 'read',
    });
  });

  it('create grants read and follow; app tokens have every scope', async () => {
    expect((await send(app, { url: '/follow', headers: bearer('tok-create') })).statusCode).toBe(200);
    expect((await send(app, { url: '/microsub', headers: bearer('tok-create') })).statusCode).toBe(200);
    expect((await send(app, { url: '/follow', headers: bearer('tok-app') })).statusCode).toBe(200);
  });
});

describe('verification cache', () => {
  it('a second request with the same token does not ask identity again', async () => {
    grants['tok-cache'] = { kind: 'app', scopes: [] };
    const before = asked.length;
    expect((await send(app, { url: '/me', headers: bearer('tok-cache') })).statusCode).toBe(200);
    expect((await send(app, { url: '/me', headers: bearer('tok-cache') })).statusCode).toBe(200);
    expect(asked.length - before).toBe(1);
  });

  it('a revocation event drops the cached token at once', async () => {
    grants['tok-revoke'] = { kind: 'app', scopes: [] };
    expect((await send(app, { url: '/me', headers: bearer('tok-revoke') })).statusCode).toBe(200);
    revoked.add('tok-revoke');
    // Still cached: identity is not asked within the TTL.
    expect((await send(app, { url: '/me', headers: bearer('tok-revoke') })).statusCode).toBe(200);
    await identityBus.publish(identity.tokenRevoked, { tokenHash: sha256Hex('tok-revoke'), userId: 7 });
    // Well within the 10 s TTL: only the event can have dropped the entry.
    const deadline = Date.now() + 3000;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) {
      await sleep(10);
      status = (await send(app, { url: '/me', headers: bearer('tok-revoke') })).statusCode;
    }
    expect(status).toBe(401);
  });

  it('unknown tokens are not remembered for more than a second', async () => {
    const before = asked.length;
    expect((await send(app, { url: '/me', headers: bearer('tok-later') })).statusCode).toBe(401);
    grants['tok-later'] = { kind: 'app', scopes: [] };
    await sleep(1100);
    expect((await send(app, { url: '/me', headers: bearer('tok-later') })).statusCode).toBe(200);
    expect(asked.length - before).toBe(2);
  });
});

describe('when identity cannot answer', () => {
  it('no responder → 503, not 401', async () => {
    const lonely = await connectBus(`memory:lonely-${randomUUID()}`, {
      service: 'reader',
      logger: testLogger(),
    });
    const { app: other } = await buildApp(addRoutes, { bus: lonely, auth: { verifyTimeoutMs: 200 } });
    try {
      const res = await send(other, { url: '/me', headers: bearer('tok-app') });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'Authentication is temporarily unavailable.' });
      expect(res.headers['www-authenticate']).toBeUndefined();
    } finally {
      await other.close();
      await lonely.close();
    }
  });

  it('a timeout → 503', async () => {
    const url = `memory:slow-${randomUUID()}`;
    const slowIdentity = await connectBus(url, { service: 'identity', logger: testLogger() });
    const client = await connectBus(url, { service: 'reader', logger: testLogger() });
    await slowIdentity.handle(identity.tokenVerify, async () => {
      await sleep(500);
      return { active: false as const };
    });
    const { app: other } = await buildApp(addRoutes, { bus: client, auth: { verifyTimeoutMs: 50 } });
    try {
      expect((await send(other, { url: '/me', headers: bearer('tok-app') })).statusCode).toBe(503);
    } finally {
      await other.close();
      await client.close();
      await slowIdentity.close();
    }
  });
});
