// requireAdminToken: the operator API answers only to `Authorization: Bearer $MURMUR_ADMIN_TOKEN`; a
// missing or wrong token is 401 naming what is needed, and without a configured token the API is off (403).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { requireAdminToken } from '../src/admin.js';
import { defineRoute } from '../src/route.js';
import { buildApp, send } from './helpers.js';

const TOKEN = 'operator-secret-0123456789abcdef';
let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await buildApp(async (scope) => {
    await scope.register(async (admin) => {
      requireAdminToken(admin, TOKEN);
      defineRoute(admin, { method: 'GET', url: '/admin/thing', handler: async () => ({ ok: true }) });
    });
    await scope.register(async (off) => {
      requireAdminToken(off, undefined);
      defineRoute(off, { method: 'GET', url: '/off/thing', handler: async () => ({ ok: true }) });
    });
    defineRoute(scope, { method: 'GET', url: '/public', handler: async () => ({ ok: true }) });
  }));
});
afterAll(() => app.close());

describe('the admin token', () => {
  it('the right token passes; routes outside the scope need none', async () => {
    const res = await send(app, { url: '/admin/thing', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect((await send(app, { url: '/public' })).statusCode).toBe(200);
  });

  it.each([
    ['no header', {}],
    ['a wrong token', { authorization: 'Bearer operator-secret-0123456789abcdeX' }],
    ['a prefix of the token', { authorization: 'Bearer operator-secret' }],
    ['Basic', { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` }],
  ])('%s → 401 naming the header', async (_name, headers) => {
    const res = await send(app, { url: '/admin/thing', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: 'A valid admin token is required (Authorization: Bearer $MURMUR_ADMIN_TOKEN).',
    });
  });

  it('no configured token → 403: the API is off, whatever is sent', async () => {
    const res = await send(app, { url: '/off/thing', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'The admin API is disabled: set MURMUR_ADMIN_TOKEN.' });
  });
});
