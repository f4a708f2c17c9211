// More than 1,000 parameters in one source (query string, form body, top level of a JSON object) is a
// 400 naming the limit; parsing stays linear, so a body of 40,000 repeated names costs next to nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { MAX_PARAMS, paramsFromPairs, parseUrlEncoded } from '../src/params.js';
import { defineRoute } from '../src/route.js';
import { buildApp, send } from './helpers.js';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await buildApp((scope) => {
    defineRoute(scope, {
      method: ['GET', 'POST'],
      url: '/echo',
      handler: async ({ input }) => ({ count: Object.keys(input).length }),
    });
  }));
});

afterAll(async () => {
  await app.close();
});

const pairs = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&');
const TOO_MANY = { error: 'Too many parameters (more than 1000).' };

describe('the cap', () => {
  it('a query string of 1,001 parameters → 400 naming the limit; 1,000 is fine', async () => {
    const over = await send(app, { url: `/echo?${pairs(MAX_PARAMS + 1)}` });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual(TOO_MANY);
    expect((await send(app, { url: `/echo?${pairs(MAX_PARAMS)}` })).json()).toEqual({ count: 1000 });
  });

  it('a form body of 1,001 parameters → 400', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const over = await send(app, { method: 'POST', url: '/echo', headers: form, payload: pairs(1001) });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual(TOO_MANY);
    const ok = await send(app, { method: 'POST', url: '/echo', headers: form, payload: pairs(1000) });
    expect(ok.json()).toEqual({ count: 1000 });
  });

  it('a JSON object with 1,001 top-level keys → 400; nested keys are not parameters', async () => {
    const big = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    const over = await send(app, { method: 'POST', url: '/echo', payload: big });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual(TOO_MANY);
    const nested = await send(app, { method: 'POST', url: '/echo', payload: { inner: big } });
    expect(nested.json()).toEqual({ count: 1 });
  });

  it('40,000 repeated `a&` (80 KB) is refused at once', async () => {
    const started = Date.now();
    const res = await send(app, {
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a&'.repeat(40_000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(TOO_MANY);
    // Generous: the quadratic parser took 11–15 s for this body.
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('empty pieces (`&&&`) are not parameters', () => {
    expect(parseUrlEncoded(`${'&'.repeat(5000)}a=1`)).toEqual(Object.assign(Object.create(null), { a: '1' }));
  });
});

describe('linear folding of repeated names', () => {
  it('50,000 repeats of one name (plain, [] and [N]) fold in linear time', () => {
    // Copying the array on each repeat (the old parser) made this ~1.25·10⁹ element copies per form:
    // tens of seconds. Pushing takes milliseconds; the bound is generous for a busy machine.
    const n = 50_000;
    const long = 'k'.repeat(40);
    const started = Date.now();
    const plain = paramsFromPairs(
      (function* () {
        for (let i = 0; i < n; i++) yield [long, String(i)] as [string, string];
      })(),
    );
    const appended = paramsFromPairs(
      (function* () {
        for (let i = 0; i < n; i++) yield [`${long}[]`, String(i)] as [string, string];
      })(),
    );
    const indexed = paramsFromPairs(
      (function* () {
        for (let i = n - 1; i >= 0; i--) yield [`${long}[${i}]`, String(i)] as [string, string];
      })(),
    );
    expect(Date.now() - started).toBeLessThan(3000);
    for (const out of [plain, appended, indexed]) {
      const values = out[long] as string[];
      expect(values).toHaveLength(n);
      expect(values[0]).toBe('0');
      expect(values[n - 1]).toBe(String(n - 1));
    }
  });
});
