// Form and query parameters may repeat (the last value wins); JSON bodies may not: a JSON array or
// object where a scalar is expected is the wrong type, a 400 naming the field — never its last element
// (issue 37: `{"title": ["a"]}` renamed a subscription to "a"). JSON arrays stay lists where a list is
// expected.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parsePage } from '../src/pagination/page.js';
import { lastValue, zParam } from '../src/params.js';
import { defineRoute } from '../src/route.js';
import { buildApp, send } from './helpers.js';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await buildApp((scope) => {
    defineRoute(scope, {
      method: ['GET', 'POST'],
      url: '/typed',
      input: z.object({
        title: zParam.string({ max: 100 }).optional(),
        count: zParam.int({ min: 1 }).optional(),
        flag: zParam.bool().optional(),
        link: zParam.url().optional(),
        color: zParam.enum(['red', 'blue']).optional(),
        ids: zParam.idArray({ max: 10 }).optional(),
      }),
      handler: async ({ input }) => input,
    });
    defineRoute(scope, {
      method: ['GET', 'POST'],
      url: '/paged',
      handler: async ({ input }) => parsePage(input, { defaultPerPage: 10, maxPerPage: 50 }),
    });
    defineRoute(scope, {
      method: ['GET', 'POST'],
      url: '/raw',
      // A route reading a scalar by hand, with the platform's helper.
      handler: async ({ input }) => ({ value: lastValue(input.name) ?? null }),
    });
  }));
});

afterAll(async () => {
  await app.close();
});

const json = (payload: unknown) => ({
  method: 'POST',
  url: '/typed',
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(payload),
});

describe('a JSON body: one value per name, of the type the parameter has', () => {
  it.each([
    ['title', ['a'], 'title: must be a string'],
    ['title', { a: 1 }, 'title: must be a string'],
    ['count', [5], 'count: must be a positive integer'],
    ['flag', [true], 'flag: must be true or false'],
    ['link', ['https://example.com/'], 'link: must be an absolute http(s) URL'],
    ['color', ['red'], 'color: must be one of red, blue'],
  ])('{"%s": %j} → 400 naming it', async (name, value, message) => {
    const res = await send(app, json({ [name]: value }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });

  it('page and per_page as JSON arrays → 400 naming the parameter', async () => {
    for (const name of ['page', 'per_page']) {
      const res = await send(app, {
        method: 'POST',
        url: '/paged',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ [name]: [2] }),
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it('a JSON array stays an array for a route reading the value by hand', async () => {
    const res = await send(app, {
      method: 'POST',
      url: '/raw',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: ['a', 'b'] }),
    });
    expect(res.json()).toEqual({ value: ['a', 'b'] });
  });

  it('sanity: the same values as scalars are taken, and a list parameter takes a JSON array', async () => {
    const res = await send(
      app,
      json({ title: 'a', count: 5, flag: true, link: 'https://example.com/', color: 'red', ids: [1, 2] }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      title: 'a',
      count: 5,
      flag: true,
      link: 'https://example.com/',
      color: 'red',
      ids: [1, 2],
    });
  });
});

describe('query strings and forms: a repeated name gives its last value', () => {
  it('query: title=a&title=b, count=1&count=7 → the last of each', async () => {
    const res = await send(app, { url: '/typed?title=a&title=b&count=1&count=7&color=blue&color=red' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ title: 'b', count: 7, color: 'red' });
  });

  it('form: title[]=a, repeated flag and page → the last values', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const typed = await send(app, {
      method: 'POST',
      url: '/typed',
      headers: form,
      payload: 'title[]=a&flag=0&flag=1',
    });
    expect(typed.json()).toEqual({ title: 'a', flag: true });
    const paged = await send(app, { method: 'POST', url: '/paged', headers: form, payload: 'page=1&page=3' });
    expect(paged.json()).toMatchObject({ page: 3 });
    const raw = await send(app, { method: 'POST', url: '/raw', headers: form, payload: 'name=a&name=b' });
    expect(raw.json()).toEqual({ value: 'b' });
  });
});
