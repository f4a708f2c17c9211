// POST /account/apple: linked → sign-in token; unknown without username → sign-up token;
// unknown with a free username → new account, linked, sign-in token that verifies once.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity } from '@murmur/contracts';
import type { EventEnvelope } from '@murmur/contracts';
import { startFakeApple, type FakeApple } from './apple.js';
import { eventually, startIdentity, type Harness } from './harness.js';

let h: Harness;
let apple: FakeApple;
const created: Array<EventEnvelope<{ user: { id: number; username: string; email: string } }>> = [];

beforeAll(async () => {
  apple = await startFakeApple();
  h = await startIdentity(apple.env());
  await h.bus.listen(identity.userCreated, async (event) => {
    created.push(event);
  });
});
afterAll(async () => {
  await h.stop();
  await apple.stop();
});

const post = (payload: Record<string, unknown>) =>
  h.inject({ method: 'POST', url: '/account/apple', payload });

describe('POST /account/apple', () => {
  test('unknown sub without username → {username:"", token} and that token fails at /account/verify', async () => {
    const res = await post({ identity_token: await apple.token('apple-sub-1'), user_id: 'apple-sub-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ username: '', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const verify = await h.verify(body.token);
    expect(verify.statusCode).toBe(401);
    expect(verify.json()).toEqual({ error: 'Token is not valid.' });
  });

  test('unknown sub with a free username → account created and linked; the token verifies once', async () => {
    const res = await post({
      // The address comes from the token, where Apple vouches for it (a body `email` is ignored).
      identity_token: await apple.token('apple-sub-1', { email: 'grace@example.com', email_verified: true }),
      user_id: 'apple-sub-1',
      username: 'Grace',
      full_name: 'Grace Hopper',
      app_name: 'Reader',
    });
    expect(res.statusCode).toBe(200);
    const { username, token } = res.json();
    expect(username).toBe('grace');

    const first = await h.verify(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      username: 'grace',
      name: 'Grace Hopper',
      full_name: 'Grace Hopper',
    });
    expect(first.json().token).not.toBe(token);
    expect((await h.verify(token)).statusCode).toBe(401);

    const event = await eventually(async () => created.find((e) => e.data.user.username === 'grace'));
    expect(event.type).toBe('identity.user.created');
    expect(event.data.user.email).toBe('grace@example.com');
  });

  test('a linked sub → the linked username and a fresh sign-in token; a username sent along is ignored', async () => {
    const res = await post({
      identity_token: await apple.token('apple-sub-1'),
      user_id: 'apple-sub-1',
      username: 'somebody_else',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('grace');
    expect((await h.verify(res.json().token)).json().username).toBe('grace');
    expect(
      (await h.admin('GET', '/admin/users')).json().users.map((u: { username: string }) => u.username),
    ).toEqual(['grace']);
  });

  test('the account can also sign in by email afterwards', async () => {
    const mail = await h.signinMail('grace@example.com');
    expect(mail.to).toEqual(['grace@example.com']);
  });

  test('an email already used by another account is not copied to the new Apple account', async () => {
    const res = await post({
      identity_token: await apple.token('apple-sub-2', {
        email: 'GRACE@example.com',
        email_verified: 'true',
      }),
      user_id: 'apple-sub-2',
      username: 'hopper',
    });
    expect(res.statusCode).toBe(200);
    const users = (await h.admin('GET', '/admin/users')).json().users as Array<{
      username: string;
      email: string;
    }>;
    expect(users.find((u) => u.username === 'hopper')?.email).toBe('');
  });

  test('the second audience of APPLE_CLIENT_IDS is accepted too', async () => {
    const res = await post({
      identity_token: await apple.token('apple-sub-1', { aud: 'com.example.other' }),
      user_id: 'apple-sub-1',
    });
    expect(res.statusCode).toBe(200);
  });
});
