import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { zParam } from '../src/params.js';
import { defineRoute } from '../src/route.js';
import { buildApp, send } from './helpers.js';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await buildApp(
    (scope) => {
      defineRoute(scope, {
        method: 'POST',
        url: '/feeds/v2/items',
        input: z.object({ title: zParam.string({ max: 1_000_000 }).optional() }),
        handler: async ({ input, request }) => ({
          title: input.title ?? null,
          bodyKeys: request.body && typeof request.body === 'object' ? Object.keys(request.body) : [],
        }),
      });
      defineRoute(scope, {
        method: 'POST',
        url: '/anything',
        handler: async ({ input }) => {
          const probe: Record<string, unknown> = {};
          return {
            polluted: probe.polluted === true || ({} as Record<string, unknown>).polluted === true,
            keys: Object.keys(input),
            nestedKeys: Object.keys((input.a as object | undefined) ?? {}),
          };
        },
      });
      defineRoute(scope, {
        method: 'POST',
        url: '/small',
        bodyLimit: 1024,
        handler: async () => ({ ok: true }),
      });
      defineRoute(scope, {
        method: 'POST',
        url: '/xmlrpc',
        xml: true,
        handler: async ({ request }) => ({ received: request.body }),
      });
    },
    { errorStyle: (url) => (url.startsWith('/feeds/v2') ? 'feedbin' : 'simple') },
  ));
});

afterAll(async () => {
  await app.close();
});

describe('limits', () => {
  it('a body over the app limit (256 KiB) is 413 in the area style', async () => {
    const res = await send(app, {
      url: '/feeds/v2/items',
      method: 'POST',
      payload: { title: 'x'.repeat(300 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: 413, message: 'Request body is too large.', errors: [] });
  });

  it('a body just under the limit is accepted', async () => {
    const res = await send(app, {
      url: '/feeds/v2/items',
      method: 'POST',
      payload: { title: 'x'.repeat(200 * 1024) },
    });
    expect(res.statusCode).toBe(200);
  });

  it('a route may lower its limit', async () => {
    const res = await send(app, { url: '/small', method: 'POST', payload: { a: 'x'.repeat(2000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large.' });
  });

  it('headers over 16 KiB are refused by the server', async () => {
    const res = await send(app, {
      url: '/small',
      method: 'POST',
      headers: { 'x-big': 'y'.repeat(17 * 1024) },
    });
    expect(res.statusCode).toBe(431);
  });
});

describe('media types', () => {
  it.each(['text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x', 'application/xml'])(
    '%s is 415 on a JSON route',
    async (type) => {
      const res = await send(app, {
        url: '/feeds/v2/items',
        method: 'POST',
        headers: { 'content-type': type },
        payload: 'x',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ status: 415, message: 'Unsupported content type.', errors: [] });
    },
  );

  it('an XML route receives the raw text; text/xml and application/xml both work', async () => {
    const xml = '<?xml version="1.0"?><methodCall><methodName>x</methodName></methodCall>';
    for (const type of ['text/xml', 'application/xml; charset=utf-8']) {
      const res = await send(app, {
        url: '/xmlrpc',
        method: 'POST',
        headers: { 'content-type': type },
        payload: xml,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: xml });
    }
  });

  it('no body at all is fine', async () => {
    expect((await send(app, { url: '/feeds/v2/items', method: 'POST' })).json()).toEqual({
      title: null,
      bodyKeys: [],
    });
  });

  it('an empty JSON body counts as no body', async () => {
    const res = await send(app, {
      url: '/feeds/v2/items?title=q',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.json()).toEqual({ title: 'q', bodyKeys: [] });
  });
});

describe('JSON safety', () => {
  it('malformed JSON is 400 "Malformed JSON body"', async () => {
    const res = await send(app, {
      url: '/anything',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      payload: '{"a": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Malformed JSON body' });
  });

  it('JSON nested deeper than 20 levels is 400; 20 levels are fine', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const tooDeep = await send(app, {
      url: '/anything',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      payload: `{"a":${deep(20)}}`,
    });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().error).toMatch(/nested deeper than 20/);
    const ok = await send(app, {
      url: '/anything',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      payload: `{"a":${deep(19)}}`,
    });
    expect(ok.statusCode).toBe(200);
    const brackets = await send(app, {
      url: '/anything',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ a: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' }),
    });
    expect(brackets.statusCode).toBe(200);
  });

  it('__proto__, constructor and prototype keys are dropped and pollute nothing', async () => {
    const res = await send(app, {
      url: '/anything',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      payload:
        '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"a":{"__proto__":{"polluted":true},"b":1},"c":2}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ polluted: false, keys: ['a', 'c'], nestedKeys: ['b'] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('form bodies drop the same keys', async () => {
    const res = await send(app, {
      url: '/anything',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '__proto__[polluted]=1&__proto__=2&prototype=3&c=4',
    });
    expect(res.json().keys).toEqual(['__proto__[polluted]', 'c']);
    expect(res.json().polluted).toBe(false);
  });
});
