// A wrong, revoked or made-up token is fault 403 and changes nothing. Ten failed logins for one username
// from one address within 15 minutes put that pair behind HTTP 429 (Retry-After), even with the right
// token; other addresses and other usernames are not affected.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  await h.siteOf(ada.id);
});
afterAll(() => h.stop());

const content = { title: 't', description: 'd' };

describe('fault 403', () => {
  it('for a wrong token, another user’s token, an unknown username or an empty token; nothing is stored', async () => {
    const before = await h.counts();
    for (const [login, token] of [
      ['ada', 'not-the-token'],
      ['ada', bob.token],
      ['nobody', ada.token],
      ['ada', ''],
      ['ada@example.com', 'wrong'],
    ] as const) {
      const res = await h.call('metaWeblog.newPost', ['0', login, token, content]);
      expect(res.statusCode).toBe(200);
      expect(res.fault).toEqual({ faultCode: 403, faultString: 'Incorrect username or app token.' });
    }
    expect(await h.counts()).toEqual(before);
  });
});

describe('failed-login throttle', () => {
  it('answers the eleventh attempt from one address with HTTP 429, whatever the token', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 10; i++) {
      const res = await h.call('metaWeblog.getRecentPosts', ['0', 'ada', `wrong-${i}`, 5], { ip });
      expect(res.statusCode).toBe(200);
      expect(res.fault?.faultCode).toBe(403);
    }
    const eleventh = await h.call('metaWeblog.getRecentPosts', ['0', 'ada', 'wrong-again', 5], { ip });
    expect(eleventh.statusCode).toBe(429);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(eleventh.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    const right = await h.call('metaWeblog.getRecentPosts', ['0', 'ada', ada.token, 5], { ip });
    expect(right.statusCode).toBe(429);

    // Another address, and another username from the same address, still get in.
    const elsewhere = await h.call('metaWeblog.getRecentPosts', ['0', 'ada', ada.token, 5], {
      ip: '203.0.113.78',
    });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.fault).toBeUndefined();
    const other = await h.call('metaWeblog.getRecentPosts', ['0', 'bob', bob.token, 5], { ip });
    expect(other.statusCode).toBe(200);
    expect(other.fault).toBeUndefined();
  });
});
