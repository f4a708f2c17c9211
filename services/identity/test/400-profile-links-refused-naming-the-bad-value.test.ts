// Profile links are absolute http(s) URLs, at most 10 (after duplicates are dropped), each at most
// 2048 characters. Anything else → 400 naming the field and the bad value, through the account API and
// the operator API alike, and the stored links stay as they were.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness, type TestResponse } from './harness.js';

let h: Harness;
let ada: { id: number; token: string };
const KEPT = ['https://kept.example/@ada'];
beforeAll(async () => {
  h = await startIdentity();
  ada = await h.createUser('ada', 'ada@example.com');
  const res = await h.admin('PATCH', `/admin/users/${ada.id}`, { links: KEPT });
  if (res.statusCode !== 200) throw new Error(`setup: ${res.statusCode} ${res.body}`);
});
afterAll(() => h.stop());

const LONG = `https://long.example/${'a'.repeat(2048)}`;
const ELEVEN = Array.from({ length: 11 }, (_, i) => `https://site${i}.example/`);

const cases: Array<[string, unknown, RegExp]> = [
  [
    'another scheme',
    ['ftp://files.example/ada'],
    /^links: "ftp:\/\/files\.example\/ada" is not an absolute http\(s\) URL/,
  ],
  [
    'javascript:',
    ['javascript:alert(1)'],
    /^links: "javascript:alert\(1\)" is not an absolute http\(s\) URL/,
  ],
  ['a relative URL', ['/ada'], /^links: "\/ada" is not an absolute http\(s\) URL/],
  ['no host', ['https://'], /^links: "https:\/\/" is not an absolute http\(s\) URL/],
  [
    'a space inside',
    ['https://a.example/x y'],
    /^links: "https:\/\/a\.example\/x y" is not an absolute http\(s\) URL/,
  ],
  [
    'a user name and password',
    ['https://u:p@a.example/'],
    /^links: "https:\/\/u:p@a\.example\/" must not contain a user name or password/,
  ],
  [
    'one good, one bad',
    ['https://ok.example/', 'mailto:ada@example.com'],
    /^links: "mailto:ada@example\.com" is not/,
  ],
  [
    'longer than 2048 characters',
    [LONG],
    /^links: "https:\/\/long\.example\/a+…" is longer than 2048 characters$/,
  ],
  ['more than 10', ELEVEN, /^links: at most 10 links \(got 11\)$/],
  ['not a list of strings', [42], /^links: must be a list of absolute http\(s\) URLs$/],
  ['an object', { url: 'https://a.example/' }, /^links: must be a list of absolute http\(s\) URLs$/],
  ['null', null, /^links: must be a list of absolute http\(s\) URLs$/],
];

async function expectRefused(res: TestResponse, message: RegExp) {
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toMatch(message);
  const stored = await h.admin('GET', `/admin/users/${ada.id}`);
  expect(stored.json().links).toEqual(KEPT);
}

describe('PATCH /account/me', () => {
  test.each(cases)('links %s → 400 naming it', async (_, links, message) => {
    const res = await h.inject({
      method: 'PATCH',
      url: '/account/me',
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { bio: 'must not be stored either', links } as Record<string, unknown>,
    });
    await expectRefused(res, message);
    expect((await h.admin('GET', `/admin/users/${ada.id}`)).json().bio).toBe('');
  });
});

describe('PATCH /admin/users/{id}', () => {
  test.each(cases)('links %s → 400 naming it', async (_, links, message) => {
    await expectRefused(await h.admin('PATCH', `/admin/users/${ada.id}`, { links }), message);
  });
});
