// Sign in with Apple creates accounts with the address Apple vouches for and nothing else: the
// identity token's `email` only when its `email_verified` is true (a boolean or the string "true"),
// never the request body's `email` — otherwise anyone could claim someone else's address and receive
// their sign-in links. The claimed address stays free for its real owner.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startFakeApple, type FakeApple } from './apple.js';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
let apple: FakeApple;
beforeAll(async () => {
  apple = await startFakeApple();
  h = await startIdentity(apple.env());
});
afterAll(async () => {
  await h.stop();
  await apple.stop();
});

async function signUp(sub: string, username: string, claims: Record<string, unknown>, bodyEmail?: string) {
  const res = await h.inject({
    method: 'POST',
    url: '/account/apple',
    payload: {
      identity_token: await apple.token(sub, claims),
      user_id: sub,
      username,
      ...(bodyEmail === undefined ? {} : { email: bodyEmail }),
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { username: string; token: string };
}

async function emailOf(username: string): Promise<string | undefined> {
  const users = (await h.admin('GET', '/admin/users')).json().users as Array<{
    username: string;
    email: string;
  }>;
  return users.find((u) => u.username === username)?.email;
}

describe('POST /account/apple creating an account', () => {
  test("a body email naming someone else is not stored, and the victim's address stays available", async () => {
    await signUp(
      'sub-mallory',
      'mallory',
      { email: 'mallory@privaterelay.test', email_verified: false },
      'victim@example.com',
    );
    expect(await emailOf('mallory')).toBe('');

    // No sign-in link for the victim's address reaches Mallory's account…
    const before = h.capture.messages.length;
    expect((await h.signin({ email: 'victim@example.com' })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.capture.messages.length).toBe(before);
    // …and the operator can still give the address to its owner.
    expect(
      (await h.admin('POST', '/admin/users', { username: 'victim', email: 'victim@example.com' })).statusCode,
    ).toBe(201);
  });

  test('an unverified token email is not stored either', async () => {
    await signUp('sub-unverified', 'unverified', { email: 'someone@example.com' });
    expect(await emailOf('unverified')).toBe('');
    await signUp('sub-false', 'falsestr', { email: 'someone@example.com', email_verified: 'false' });
    expect(await emailOf('falsestr')).toBe('');
  });

  test('a verified token email (boolean true) is stored; the body email is ignored', async () => {
    await signUp('sub-ada', 'ada', { email: 'ada@example.com', email_verified: true }, 'other@example.com');
    expect(await emailOf('ada')).toBe('ada@example.com');
  });

  test('a verified token email (the string "true", as Apple sometimes sends it) is stored', async () => {
    await signUp('sub-grace', 'grace', { email: 'grace@example.com', email_verified: 'true' });
    expect(await emailOf('grace')).toBe('grace@example.com');
  });
});
