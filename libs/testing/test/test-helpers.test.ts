// The shared test helpers behave as services' tests rely on: the TestClock moves only when told,
// eventually waits for a value, and the fake identity answers like identity (and revokes like it).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { identity, SCOPES } from '@murmur/contracts';
import { connectBus } from '@murmur/runtime';
import type { Bus } from '@murmur/bus';
import { sha256Hex, systemClock } from '@murmur/core';
import { eventually, TestClock } from '../src/clock.js';
import { startFakeIdentity, type FakeIdentity } from '../src/identity.js';
import { testLogger } from '../src/logger.js';

describe('TestClock', () => {
  it('stands still until advanced or set', async () => {
    const clock = new TestClock(new Date('2026-01-01T00:00:00Z'));
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    clock.advance(1500);
    expect(clock.nowMs()).toBe(Date.parse('2026-01-01T00:00:01.500Z'));
    clock.set(new Date('2027-05-05T05:05:05Z'));
    expect(clock.now().toISOString()).toBe('2027-05-05T05:05:05.000Z');
    // Handed over as plain functions, as older code takes `now: () => Date`.
    const { now, nowMs } = clock;
    expect(now().getTime()).toBe(nowMs());
  });

  it('systemClock reads the wall clock', () => {
    const before = Date.now();
    const at = systemClock.nowMs();
    expect(at).toBeGreaterThanOrEqual(before);
    expect(Math.abs(systemClock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});

describe('eventually', () => {
  it('returns the first defined value', async () => {
    let n = 0;
    expect(await eventually(async () => (++n >= 3 ? n : undefined), 2000, 5)).toBe(3);
  });

  it('gives up after the timeout, with the last error of the check', async () => {
    await expect(eventually(() => undefined, 50, 5)).rejects.toThrow('condition not met within 50 ms');
    await expect(
      eventually(
        () => {
          throw new Error('still 404');
        },
        50,
        5,
      ),
    ).rejects.toThrow('still 404');
  });
});

describe('startFakeIdentity', () => {
  let idBus: Bus;
  let client: Bus;
  let fake: FakeIdentity;

  beforeEach(async () => {
    const url = `memory:fake-${randomUUID()}`;
    idBus = await connectBus(url, { service: 'identity', logger: testLogger() });
    client = await connectBus(url, { service: 'reader', logger: testLogger() });
    fake = await startFakeIdentity(idBus, {
      users: [{ id: 4, username: 'ann', email: 'ann@example.com' }],
      tokens: [
        { token: 'app-tok', userId: 4 },
        { token: 'ia-tok', userId: 4, kind: 'indieauth', scopes: ['read'], clientId: 'https://c.example/' },
      ],
    });
  });

  afterEach(async () => {
    await fake.stop();
    await client.close();
    await idBus.close();
  });

  it('answers token.verify from its tables', async () => {
    expect(await client.request(identity.tokenVerify, { token: 'app-tok' })).toEqual({
      active: true,
      userId: 4,
      username: 'ann',
      kind: 'app',
      scopes: [...SCOPES],
      clientId: '',
      tokenHash: sha256Hex('app-tok'),
    });
    expect(await client.request(identity.tokenVerify, { token: 'ia-tok' })).toMatchObject({
      kind: 'indieauth',
      scopes: ['read'],
      clientId: 'https://c.example/',
    });
    expect(await client.request(identity.tokenVerify, { token: 'nope' })).toEqual({ active: false });
    expect(fake.asked[identity.tokenVerify.subject]).toBe(3);
  });

  it('answers credentials.verify for app tokens only, by username or email', async () => {
    const ok = { ok: true, userId: 4, username: 'ann' };
    expect(await client.request(identity.credentialsVerify, { login: 'Ann', token: 'app-tok' })).toEqual(ok);
    expect(
      await client.request(identity.credentialsVerify, { login: 'ann@example.com', token: 'app-tok' }),
    ).toEqual(ok);
    expect(await client.request(identity.credentialsVerify, { login: 'ann', token: 'ia-tok' })).toEqual({
      ok: false,
    });
  });

  it('answers users.get and knows users added later', async () => {
    const bob = fake.addUser({ username: 'bob' });
    expect(bob.id).toBe(5);
    expect(await client.request(identity.usersGet, { username: 'bob' })).toMatchObject({
      user: { id: 5, username: 'bob', email: 'bob@example.com' },
    });
    expect(await client.request(identity.usersGet, { id: 99 })).toEqual({ user: null });
  });

  it('revoke forgets the token and announces it on the bus as identity does', async () => {
    const heard: string[] = [];
    await client.listen(identity.tokenRevoked, async (event) => {
      heard.push(event.data.tokenHash);
    });
    await fake.revoke('app-tok');
    await eventually(() => (heard.length === 1 ? true : undefined), 2000, 5);
    expect(heard).toEqual([sha256Hex('app-tok')]);
    expect(await client.request(identity.tokenVerify, { token: 'app-tok' })).toEqual({ active: false });
  });
});
