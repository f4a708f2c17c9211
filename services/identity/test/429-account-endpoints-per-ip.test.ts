// /account/verify, /account/apple and /account/signin/web each allow 30 requests per minute per client address.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness, type TestRequest } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity({}, { defaultLimits: true });
});
afterAll(() => h.stop());

const requests: Array<[string, (ip: string) => TestRequest, number]> = [
  [
    'POST /account/verify',
    (ip) => ({
      method: 'POST',
      url: '/account/verify',
      headers: { 'x-forwarded-for': ip },
      payload: { token: 'x'.repeat(43) },
    }),
    401,
  ],
  [
    'POST /account/apple',
    (ip) => ({
      method: 'POST',
      url: '/account/apple',
      headers: { 'x-forwarded-for': ip },
      payload: { identity_token: 'a.b.c', user_id: 'x' },
    }),
    400, // Apple sign-in is not configured here; the limit still counts
  ],
  [
    'GET /account/signin/web',
    (ip) => ({
      method: 'GET',
      url: `/account/signin/web?token=${'y'.repeat(43)}`,
      headers: { 'x-forwarded-for': ip },
    }),
    401,
  ],
  [
    'POST /account/signin/web',
    (ip) => ({
      method: 'POST',
      url: '/account/signin/web',
      headers: { 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${'y'.repeat(43)}&csrf=x`,
    }),
    403, // not sent from the confirmation page; the limit still counts
  ],
];

describe('per-address limits of the account endpoints', () => {
  test.each(requests)(
    '%s: the 31st request within a minute → 429 with Retry-After; other addresses unaffected',
    async (_name, make, usual) => {
      // A fresh window per case: GET and POST /account/signin/web share one allowance.
      h.clock.advance(120_000);
      for (let i = 0; i < 30; i++) expect((await h.inject(make('203.0.113.50'))).statusCode).toBe(usual);
      const limited = await h.inject(make('203.0.113.50'));
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body).toMatch(/Too many/);
      expect((await h.inject(make('203.0.113.51'))).statusCode).toBe(usual);
    },
  );

  test('two minutes later the address may try again', async () => {
    h.clock.advance(120_000);
    expect((await h.inject(requests[0]![1]('203.0.113.50'))).statusCode).toBe(401);
  });
});
