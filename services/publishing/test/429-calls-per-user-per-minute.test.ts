// XML-RPC calls are limited per user (120 a minute by default; 3 here): the next call is HTTP 429 with
// Retry-After, and other users are not affected.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness({ env: { XMLRPC_CALLS_PER_MINUTE: '3' } });
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
});
afterAll(() => h.stop());

it('refuses the fourth call in a minute with 429', async () => {
  for (let i = 0; i < 3; i++) {
    const res = await h.call('metaWeblog.getCategories', ['0', 'ada', ada.token]);
    expect(res.fault).toBeUndefined();
  }
  const fourth = await h.call('metaWeblog.getCategories', ['0', 'ada', ada.token]);
  expect(fourth.statusCode).toBe(429);
  expect(fourth.headers['content-type']).toMatch(/^text\/plain/);
  expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
  const bobs = await h.call('metaWeblog.getCategories', ['0', 'bob', bob.token]);
  expect(bobs.statusCode).toBe(200);
});
