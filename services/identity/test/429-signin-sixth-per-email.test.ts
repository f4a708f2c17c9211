// Rate limits of /account/signin: 5 per hour per email, 20 per hour per client address.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity({}, { defaultLimits: true });
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

describe('POST /account/signin rate limits', () => {
  test('the sixth sign-in for one email within an hour → 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await h.signin({ email: 'ada@example.com' })).statusCode).toBe(200);
    const sixth = await h.signin({ email: 'ADA@example.com' });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.json().error).toMatch(/Too many sign-in requests/);
  });

  test('an unknown email is limited the same way (no enumeration through 429s)', async () => {
    for (let i = 0; i < 5; i++) expect((await h.signin({ email: 'ghost@example.com' })).statusCode).toBe(200);
    expect((await h.signin({ email: 'ghost@example.com' })).statusCode).toBe(429);
  });

  test('the limit lifts after an hour', async () => {
    h.clock.advance(2 * 3_600_000);
    expect((await h.signin({ email: 'ada@example.com' })).statusCode).toBe(200);
  });

  test('the 21st sign-in from one address within an hour → 429', async () => {
    const ip = '203.0.113.9';
    for (let i = 0; i < 20; i++) {
      expect((await h.signin({ email: `person${i}@example.com` }, ip)).statusCode).toBe(200);
    }
    const res = await h.signin({ email: 'someone-else@example.com' }, ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json().error).toMatch(/from this address/);
  });
});
