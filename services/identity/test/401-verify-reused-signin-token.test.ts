// Sign-in tokens work once, for 15 minutes; anything that is not a live token is 401 "Token is not valid."
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

const INVALID = { error: 'Token is not valid.' };

describe('POST /account/verify refuses tokens that are not live', () => {
  test('reusing an emailed token → 401', async () => {
    const emailed = tokenFromMail(await h.signinMail('ada@example.com'));
    expect((await h.verify(emailed)).statusCode).toBe(200);
    const again = await h.verify(emailed);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(INVALID);
  });

  test('an emailed token older than 15 minutes → 401', async () => {
    const emailed = tokenFromMail(await h.signinMail('ada@example.com'));
    h.clock.advance(15 * 60_000 + 1000);
    const res = await h.verify(emailed);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });

  test('an emailed token just under 15 minutes old still works', async () => {
    const emailed = tokenFromMail(await h.signinMail('ada@example.com'));
    h.clock.advance(14 * 60_000);
    expect((await h.verify(emailed)).statusCode).toBe(200);
  });

  test('an unknown token → 401', async () => {
    const res = await h.verify('A'.repeat(43));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });

  test('two simultaneous exchanges of one emailed token: exactly one succeeds', async () => {
    const emailed = tokenFromMail(await h.signinMail('ada@example.com'));
    const results = await Promise.all([h.verify(emailed), h.verify(emailed), h.verify(emailed)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
  });
});
