// docs/security.md: the IndieAuth screens and code redemption allow 60 requests a minute per client IP
// (configurable); more → 429 with Retry-After, in each endpoint's own error shape.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Harness } from './harness.js';
import { postForm, startIndieAuthIdentity } from './indieauth.js';

let h: Harness;
beforeAll(async () => {
  h = await startIndieAuthIdentity({
    INDIEAUTH_SCREEN_LIMIT_PER_IP_PER_MINUTE: '3',
    INDIEAUTH_REDEEM_LIMIT_PER_IP_PER_MINUTE: '3',
  });
});
afterAll(() => h.stop());

const SCREEN = '/indieauth/auth?client_id=https%3A%2F%2Fapp.test%2F&redirect_uri=https%3A%2F%2Fapp.test%2Fcb';

describe('IndieAuth rate limits per IP', () => {
  test('the fourth screen from one address in a minute → 429 HTML with Retry-After; another address is fine', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.1' };
    for (let i = 0; i < 3; i++) expect((await h.inject({ url: SCREEN, headers: ip })).statusCode).toBe(200);
    const limited = await h.inject({ url: SCREEN, headers: ip });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toMatch(/^text\/html/);
    // Approve counts against the same allowance.
    expect((await postForm(h, '/indieauth/approve', {}, ip)).statusCode).toBe(429);
    expect((await h.inject({ url: SCREEN, headers: { 'x-forwarded-for': '198.51.100.2' } })).statusCode).toBe(
      200,
    );
  });

  test('the fourth redemption from one address in a minute → 429 OAuth JSON with Retry-After', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.3' };
    const fields = { code: 'x', client_id: 'https://app.test/', redirect_uri: 'https://app.test/cb' };
    for (let i = 0; i < 3; i++)
      expect((await postForm(h, '/indieauth/token', fields, ip)).statusCode).toBe(400);
    const limited = await postForm(h, '/indieauth/auth', fields, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toEqual({ error: expect.any(String), error_description: expect.any(String) });
  });
});
