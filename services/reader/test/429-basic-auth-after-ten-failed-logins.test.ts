// Wrong Basic passwords count toward the platform's failed-login throttle: after ten, the eleventh
// attempt is 429 with Retry-After — also with the right password — until the window is over.
import { expect, test } from '@jest/globals';
import { basic, useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let ann: TestUser;

useReaderWithFeedServer((started) => {
  ({ h, ann } = started);
});

const check = (headers: Record<string, string>) =>
  h.req(null, 'GET', '/feeds/v2/authentication.json', undefined, headers);

test('11th wrong password → 429 with Retry-After, the right one too, until the window passes', async () => {
  for (let i = 1; i <= 10; i++) {
    const res = await check(basic('ann', `wrong-${i}`));
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="service"');
  }
  const eleventh = await check(basic('ann', 'wrong-11'));
  expect(eleventh.statusCode).toBe(429);
  expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
  expect(eleventh.json()).toEqual({ status: 429, message: 'Too Many Requests', errors: [] });

  // The login is throttled however it is spelled; the right password does not get through.
  const right = await check(basic('ANN ', ann.token));
  expect(right.statusCode).toBe(429);
  expect(right.headers['retry-after']).toBeDefined();
  // Bearer tokens are not logins: the same user's token still works.
  expect((await h.get(ann, '/feeds/v2/authentication.json')).statusCode).toBe(200);

  h.clock.advance(16 * 60_000);
  expect((await check(basic('ann', ann.token))).statusCode).toBe(200);
});
