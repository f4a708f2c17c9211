import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '../src/route.js';
import { buildApp, send } from './helpers.js';

let app: FastifyInstance;
let lines: string[];

const user = z.object({ id: z.number(), username: z.string() });

beforeAll(async () => {
  ({ app, lines } = await buildApp((scope) => {
    defineRoute(scope, {
      method: 'GET',
      url: '/user',
      response: { 200: user },
      handler: async () => ({ id: 1, username: 'ada', email: 'ada@example.test', tokenHash: 'abc' }),
    });
    defineRoute(scope, {
      method: 'POST',
      url: '/user',
      response: { 201: user },
      handler: async ({ reply }) => {
        reply.code(201).header('location', '/user/2');
        return { id: 2, username: 'bob' };
      },
    });
    defineRoute(scope, {
      method: 'GET',
      url: '/broken',
      response: { 200: user },
      handler: async () => ({ id: 'one', username: 'ada' }) as unknown as { id: number; username: string },
    });
    defineRoute(scope, {
      method: 'GET',
      url: '/wrong-status',
      response: { 200: user },
      handler: async ({ reply }) => {
        reply.code(202);
        return { id: 1, username: 'ada' };
      },
    });
    defineRoute(scope, {
      method: 'GET',
      url: '/page',
      response: { 200: user },
      handler: async ({ reply }) => reply.type('text/html; charset=utf-8').send('<p>hello</p>'),
    });
    defineRoute(scope, {
      method: 'GET',
      url: '/redirect',
      handler: async ({ reply }) => reply.redirect('https://example.test/next', 302),
    });
    defineRoute(scope, {
      method: 'DELETE',
      url: '/user',
      handler: async ({ reply }) => {
        reply.code(204);
      },
    });
  }));
});

afterAll(async () => {
  await app.close();
});

describe('response schemas', () => {
  it('strip what the schema does not name', async () => {
    const res = await send(app, { url: '/user' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 1, username: 'ada' });
  });

  it('are chosen by the status the handler set', async () => {
    const res = await send(app, { url: '/user', method: 'POST' });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe('/user/2');
    expect(res.json()).toEqual({ id: 2, username: 'bob' });
  });

  it('a result that does not match is a 500, logged as a bug', async () => {
    const res = await send(app, { url: '/broken', headers: { 'x-request-id': 'bug-1' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal error' });
    expect(lines.some((l) => l.includes('bug-1') && l.includes('response does not match its schema'))).toBe(
      true,
    );
  });

  it('a status without a schema is a 500', async () => {
    expect((await send(app, { url: '/wrong-status' })).statusCode).toBe(500);
  });
});

describe('handlers using reply directly', () => {
  it('send HTML untouched', async () => {
    const res = await send(app, { url: '/page' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe('<p>hello</p>');
  });

  it('redirect', async () => {
    const res = await send(app, { url: '/redirect' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.test/next');
  });

  it('return nothing for an empty body', async () => {
    const res = await send(app, { url: '/user', method: 'DELETE' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });
});
