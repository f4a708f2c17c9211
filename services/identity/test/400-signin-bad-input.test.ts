// Bad sign-in requests: the right status, a message naming the problem, and nothing stored or mailed.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { collectionCounts, startIdentity, type Harness } from './harness.js';

let h: Harness;
let before: Record<string, number>;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
  await h.registerApp('Reader', 'app://signin');
  before = await collectionCounts(h.store);
});
afterAll(() => h.stop());

const EMAIL_REQUIRED = { error: 'A valid email address is required.' };

describe('POST /account/signin with bad input', () => {
  test.each([
    ['no email', {}],
    ['email=foo', { email: 'foo' }],
    ['two @', { email: 'ada@@example.com' }],
    ['nothing before @', { email: '@example.com' }],
    ['nothing after @', { email: 'ada@' }],
    ['a space inside', { email: 'ada lovelace@example.com' }],
    ['a line break (header injection)', { email: 'ada@example.com\r\nBcc: eve@example.com' }],
    ['longer than 254 characters', { email: `${'a'.repeat(250)}@example.com` }],
    ['a number', { email: 42 }],
    ['an object', { email: { address: 'ada@example.com' } }],
  ])('%s → 400 "A valid email address is required."', async (_case, params) => {
    const res = await h.signin(params);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(EMAIL_REQUIRED);
  });

  test('an unregistered app_name → 400 naming app_name', async () => {
    const res = await h.signin({ email: 'ada@example.com', app_name: 'Unknown' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/app_name/);
  });

  test('a redirect_url differing by one character → 400 naming redirect_url', async () => {
    const res = await h.signin({
      email: 'ada@example.com',
      app_name: 'Reader',
      redirect_url: 'app://signim',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/redirect_url/);
  });

  test('a redirect_url of no registered app (without app_name) → 400', async () => {
    const res = await h.signin({ email: 'ada@example.com', redirect_url: 'https://evil.example/steal' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/redirect_url/);
  });

  test('is_mobile that is not an integer → 400 naming is_mobile', async () => {
    const res = await h.signin({ email: 'ada@example.com', is_mobile: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^is_mobile: /);
  });

  test('malformed JSON → 400', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/account/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "ada@example.com"',
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe('string');
  });

  test('a body over 256 KiB → 413', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/account/signin',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'ada@example.com', pad: 'x'.repeat(300 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(typeof res.json().error).toBe('string');
  });

  test('an unsupported body type → 415', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/account/signin',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=ada@example.com',
    });
    expect(res.statusCode).toBe(415);
  });

  test('GET on the POST-only route and unknown /account paths → 404 {error}', async () => {
    for (const [method, url] of [
      ['GET', '/account/signin'],
      ['POST', '/account/nothing-here'],
    ] as const) {
      const res = await h.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found.' });
    }
  });

  test('none of the above stored anything or sent mail', async () => {
    // Only the rate-limit counters may have moved (the valid-looking requests were counted).
    const after = await collectionCounts(h.store);
    expect({ ...after, ratelimits: 0 }).toEqual({ ...before, ratelimits: 0 });
    expect(h.capture.messages).toHaveLength(0);
  });
});
