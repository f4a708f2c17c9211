import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { zParam } from '../src/params.js';
import { defineRoute } from '../src/route.js';
import { buildApp, send } from './helpers.js';

let app: FastifyInstance;

const form = (body: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: body,
});

beforeAll(async () => {
  ({ app } = await buildApp((scope) => {
    defineRoute(scope, {
      method: ['GET', 'POST'],
      url: '/echo',
      input: z.object({
        per_page: zParam.int({ min: 1, max: 1000, clamp: true }).optional(),
        page: zParam.int({ min: 1 }).default(1),
        starred: zParam.bool().optional(),
        ids: zParam.idArray({ max: 5 }).optional(),
        entry: zParam.idArray({ max: 100 }).optional(),
        name: zParam.string({ max: 10, trim: true }).optional(),
        url: zParam.url().optional(),
        mode: zParam.enum(['a', 'b']).optional(),
      }),
      handler: async ({ input }) => input,
    });
    defineRoute(scope, {
      method: 'POST',
      url: '/required',
      input: z.object({ title: zParam.string({ max: 5, min: 1 }) }),
      handler: async ({ input }) => input,
    });
    defineRoute(scope, {
      method: 'POST',
      url: '/unread',
      arrayBody: 'unread_entries',
      input: z.object({ unread_entries: zParam.idArray({ max: 1000 }) }),
      handler: async ({ input }) => input,
    });
    defineRoute(scope, {
      method: 'GET',
      url: '/entries/:id',
      params: z.object({ id: zParam.id() }),
      handler: async ({ params }) => ({ id: params.id }),
    });
    defineRoute(scope, {
      method: 'GET',
      url: '/raw',
      handler: async ({ input }) => ({ keys: Object.keys(input) }),
    });
  }));
});

afterAll(async () => {
  await app.close();
});

describe('400 names the parameter', () => {
  it.each([
    ['query', { url: '/echo?per_page=abc' }],
    ['form body', { url: '/echo', ...form('per_page=1.5') }],
    ['JSON body', { url: '/echo', method: 'POST', payload: { per_page: 2.5 } }],
    ['JSON string that is not an integer', { url: '/echo', method: 'POST', payload: { per_page: ' 3' } }],
  ])('in the %s', async (_where, request) => {
    const res = await send(app, request);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'per_page: must be an integer from 1 to 1000' });
  });

  it('strings must be valid UTF-8 (no lone surrogates from JSON escapes)', async () => {
    const res = await send(app, {
      url: '/echo',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a\\ud800b"}',
    });
    expect(res.json()).toEqual({ error: 'name: must be valid UTF-8 text' });
    const ok = await send(app, { url: '/echo', method: 'POST', payload: { name: 'a😀' } });
    expect(ok.json().name).toBe('a😀');
  });

  it('missing required parameters say so', async () => {
    const res = await send(app, { url: '/required', method: 'POST', payload: {} });
    expect(res.json()).toEqual({ error: 'title: is required' });
  });

  it.each([
    ['starred=yes', 'starred: must be true or false'],
    ['ids=1,x', 'ids: must be a list of integer ids'],
    ['ids=1,2,3,4,5,6', 'ids: must have at most 5 ids'],
    ['name=abcdefghijkl', 'name: must be at most 10 characters'],
    ['name=a%00b', 'name: must not contain NUL characters'],
    ['url=javascript:alert(1)', 'url: must be an absolute http(s) URL'],
    ['url=/relative', 'url: must be an absolute http(s) URL'],
    ['mode=c', 'mode: must be one of a, b'],
    ['page=0', 'page: must be a positive integer'],
  ])('%s → %s', async (query, message) => {
    const res = await send(app, { url: `/echo?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });
});

describe('values', () => {
  it('parses strings from the query into typed values', async () => {
    const res = await send(app, {
      url: '/echo?per_page=20&starred=1&name=%20ada%20&url=https://a.example/x%20y&mode=b',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      per_page: 20,
      page: 1,
      starred: true,
      name: 'ada',
      url: 'https://a.example/x%20y',
      mode: 'b',
    });
  });

  it('accepts JSON-typed values', async () => {
    const res = await send(app, {
      url: '/echo',
      method: 'POST',
      payload: { per_page: 3, starred: false, ids: [4, '5'] },
    });
    expect(res.json()).toEqual({ per_page: 3, page: 1, starred: false, ids: [4, 5] });
  });

  it('clamps where the parameter allows it', async () => {
    expect((await send(app, { url: '/echo?per_page=5000' })).json().per_page).toBe(1000);
  });

  it('body wins over query; the last repeated scalar wins', async () => {
    const res = await send(app, {
      url: '/echo?per_page=7&page=3&name=q',
      ...form('per_page=8&name=f1&name=f2'),
    });
    expect(res.json()).toEqual({ per_page: 8, page: 3, name: 'f2' });
    const json = await send(app, { url: '/echo?per_page=7', method: 'POST', payload: { per_page: 9 } });
    expect(json.json().per_page).toBe(9);
  });

  it('unknown parameters are ignored', async () => {
    expect((await send(app, { url: '/echo?zzz=1' })).json()).toEqual({ page: 1 });
  });
});

describe('arrays in every form', () => {
  it.each([
    ['repeated name', '/echo?entry=1&entry=2&entry=3'],
    ['name[]', '/echo?entry[]=1&entry[]=2&entry[]=3'],
    ['encoded name[]', '/echo?entry%5B%5D=1&entry%5B%5D=2&entry%5B%5D=3'],
    ['indexed, out of order', '/echo?entry[2]=3&entry[0]=1&entry[1]=2'],
    ['comma-separated', '/echo?entry=1,2,3'],
    ['plain mixed with indexed', '/echo?entry=1&entry[0]=2&entry[1]=3'],
  ])('%s in the query', async (_form, url) => {
    expect((await send(app, { url })).json().entry).toEqual([1, 2, 3]);
  });

  it('in a form body', async () => {
    expect((await send(app, { url: '/echo', ...form('entry[]=4&entry[]=5') })).json().entry).toEqual([4, 5]);
    expect((await send(app, { url: '/echo', ...form('entry=6') })).json().entry).toEqual([6]);
  });

  it('as a JSON array, or as a bare JSON array body where the route allows it', async () => {
    expect(
      (await send(app, { url: '/echo', method: 'POST', payload: { entry: [7, 8] } })).json().entry,
    ).toEqual([7, 8]);
    const bare = await send(app, { url: '/unread', method: 'POST', payload: [1, 2, 3] });
    expect(bare.json()).toEqual({ unread_entries: [1, 2, 3] });
    const wrapped = await send(app, { url: '/unread', method: 'POST', payload: { unread_entries: [4] } });
    expect(wrapped.json()).toEqual({ unread_entries: [4] });
  });

  it('a bare JSON array elsewhere is a 400', async () => {
    const res = await send(app, { url: '/echo', method: 'POST', payload: [1] });
    expect(res.statusCode).toBe(400);
  });
});

describe('path parameters', () => {
  it('a valid id reaches the handler', async () => {
    expect((await send(app, { url: '/entries/42' })).json()).toEqual({ id: 42 });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999999999999'])('"%s" is 404, not 400', async (id) => {
    const res = await send(app, { url: `/entries/${id}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
  });

  it('an over-long path parameter is 404', async () => {
    expect((await send(app, { url: `/entries/${'1'.repeat(300)}` })).statusCode).toBe(404);
  });
});

describe('without an input schema', () => {
  it('the handler gets the merged record without dangerous keys', async () => {
    const res = await send(app, { url: '/raw?a=1&__proto__=x&constructor=y&b[]=2' });
    expect(res.json()).toEqual({ keys: ['a', 'b'] });
  });
});
