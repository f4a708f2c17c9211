// What other services get from identity over the bus: token checks, XML-RPC logins, user look-ups.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { identity, SCOPES } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { sha256Hex } from '@murmur/core';
import { connectBus } from '@murmur/runtime';
import { testLogger } from '@murmur/testing';
import { PUBLIC_URL, startIdentity, type Harness } from './harness.js';

let h: Harness;
let caller: Bus;
let ada: { id: number; token: string };
let bob: { id: number; token: string };
beforeAll(async () => {
  h = await startIdentity();
  ada = await h.createUser('ada', 'Ada@Example.com');
  bob = await h.createUser('bob');
  // A separate client on the same broker, like another service.
  caller = await connectBus(h.service.config.BUS_URL, { service: 'reader', logger: testLogger() });
});
afterAll(async () => {
  await caller.close();
  await h.stop();
});

describe('identity.token.verify', () => {
  test('a live app token → active with every scope and the token hash', async () => {
    const res = await caller.request(
      identity.tokenVerify,
      { token: ada.token },
      { headers: { 'x-request-id': 'req-1' } },
    );
    expect(res).toEqual({
      active: true,
      userId: ada.id,
      username: 'ada',
      kind: 'app',
      scopes: [...SCOPES],
      clientId: '',
      tokenHash: sha256Hex(ada.token),
    });
  });

  test('unknown and revoked tokens → {active:false}', async () => {
    expect(await caller.request(identity.tokenVerify, { token: 'nope' })).toEqual({ active: false });
    const extra = (await h.admin('POST', `/admin/users/${bob.id}/tokens`)).json();
    await h.admin('DELETE', `/admin/tokens/${extra.id}`);
    expect(await caller.request(identity.tokenVerify, { token: extra.token })).toEqual({ active: false });
  });

  test('records last use, at most once a minute', async () => {
    const lastUsed = async () =>
      (await h.admin('GET', `/admin/users/${bob.id}/tokens`)).json().tokens[0].last_used_at as string | null;
    await caller.request(identity.tokenVerify, { token: bob.token });
    const first = await lastUsed();
    expect(first).not.toBeNull();
    h.clock.advance(30_000);
    await caller.request(identity.tokenVerify, { token: bob.token });
    expect(await lastUsed()).toBe(first);
    h.clock.advance(31_000);
    await caller.request(identity.tokenVerify, { token: bob.token });
    expect(await lastUsed()).not.toBe(first);
  });
});

describe('identity.credentials.verify', () => {
  test.each([
    ['username', 'ada'],
    ['username in another case', 'ADA'],
    ['email', 'ada@example.com'],
    ['email in another case', 'ADA@EXAMPLE.COM'],
  ])('login by %s + own app token → ok', async (_case, login) => {
    expect(await caller.request(identity.credentialsVerify, { login, token: ada.token })).toEqual({
      ok: true,
      userId: ada.id,
      username: 'ada',
    });
  });

  test("another user's token, an unknown login or an unknown token → not ok", async () => {
    for (const payload of [
      { login: 'ada', token: bob.token },
      { login: 'nobody', token: ada.token },
      { login: 'ada', token: 'wrong' },
    ]) {
      expect(await caller.request(identity.credentialsVerify, payload)).toEqual({ ok: false });
    }
  });
});

describe('identity.users.get', () => {
  test('by id and by username (case-insensitive) → the public user', async () => {
    const expected = {
      id: ada.id,
      username: 'ada',
      email: 'Ada@Example.com',
      name: 'ada',
      fullName: '',
      avatar: `${PUBLIC_URL}/account/avatar/ada.svg`,
      bio: '',
      links: [],
      createdAt: expect.stringMatching(/\+00:00$/),
    };
    expect(await caller.request(identity.usersGet, { id: ada.id })).toEqual({ user: expected });
    expect(await caller.request(identity.usersGet, { username: 'Ada' })).toEqual({ user: expected });
  });

  test('unknown → {user: null}', async () => {
    expect(await caller.request(identity.usersGet, { id: 999 })).toEqual({ user: null });
    expect(await caller.request(identity.usersGet, { username: 'nobody' })).toEqual({ user: null });
  });
});
