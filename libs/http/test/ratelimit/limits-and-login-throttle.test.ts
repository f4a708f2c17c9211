// Named store-backed limits with one enforce call, and the failed-login throttle, on an injected clock.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AppError } from '@murmur/core';
import { createLimits, createLoginThrottle } from '../../src/ratelimit.js';
import { openStore } from '@murmur/runtime';
import type { Store } from '@murmur/store';
import { TestClock } from '@murmur/testing';

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;

let store: Store;
let clock: TestClock;

beforeEach(async () => {
  store = await openStore('memory:', { service: 'limits-test' });
  // Counters expire by the store's real clock, so the test clock starts at a window boundary ahead of it.
  clock = new TestClock(Math.ceil(Date.now() / QUARTER) * QUARTER + QUARTER);
});

afterEach(async () => {
  await store.close();
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe('createLimits', () => {
  it('enforce counts and throws 429 with Retry-After and the message once over', async () => {
    const limits = createLimits(store, clock, {
      signinPerIp: { max: 2, windowMs: MINUTE },
      verifyPerIp: { max: 1, windowMs: MINUTE, message: 'Too many verifications.' },
    });
    await limits.enforce('signinPerIp', '192.0.2.1');
    await limits.enforce('signinPerIp', '192.0.2.1');
    const err = await refusal(limits.enforce('signinPerIp', '192.0.2.1', 'Too many sign-ins.'));
    expect(err.status).toBe(429);
    expect(err.message).toBe('Too many sign-ins.');
    expect(err.headers['Retry-After']).toBe('60');
    // Another key, another limit: counted apart.
    await limits.enforce('signinPerIp', '192.0.2.2');
    await limits.enforce('verifyPerIp', '192.0.2.1');
    expect((await refusal(limits.enforce('verifyPerIp', '192.0.2.1'))).message).toBe(
      'Too many verifications.',
    );
    clock.advance(MINUTE);
    await limits.enforce('signinPerIp', '192.0.2.1');
  });

  it('check peeks without counting; reset forgets', async () => {
    const limits = createLimits(store, clock, { logins: { max: 1, windowMs: MINUTE } });
    await limits.check('logins', 'ann');
    await limits.check('logins', 'ann');
    expect((await limits.peek('logins', 'ann')).remaining).toBe(1);
    expect((await limits.hit('logins', 'ann')).allowed).toBe(true);
    expect((await refusal(limits.check('logins', 'ann'))).status).toBe(429);
    await limits.reset('logins', 'ann');
    await limits.check('logins', 'ann');
  });

  it('replicas share the counts (two limit sets on one store)', async () => {
    const a = createLimits(store, clock, { calls: { max: 2, windowMs: MINUTE } });
    const b = createLimits(store, clock, { calls: { max: 2, windowMs: MINUTE } });
    await a.enforce('calls', 'u1');
    await b.enforce('calls', 'u1');
    expect((await refusal(a.enforce('calls', 'u1'))).status).toBe(429);
  });
});

describe('createLoginThrottle', () => {
  it('refuses (login, ip) after max failures until the window ends; login case and blanks do not matter', async () => {
    const throttle = createLoginThrottle(store, { max: 3, windowMs: QUARTER, clock });
    for (const login of ['ann', ' ANN', 'Ann ']) {
      await throttle.check(login, '192.0.2.1');
      await throttle.fail(login, '192.0.2.1');
    }
    const err = await refusal(throttle.check('ann', '192.0.2.1'));
    expect(err.status).toBe(429);
    expect(err.message).toBe('Too many failed logins. Try again later.');
    expect(Number(err.headers['Retry-After'])).toBe(15 * 60);
    await throttle.check('ann', '192.0.2.9');
    await throttle.check('bob', '192.0.2.1');
    clock.advance(QUARTER);
    await throttle.check('ann', '192.0.2.1');
  });

  it('defaults to 10 failures per 15 minutes', async () => {
    const throttle = createLoginThrottle(store, { clock });
    for (let i = 0; i < 10; i++) await throttle.fail('cy', '192.0.2.1');
    expect((await refusal(throttle.check('cy', '192.0.2.1'))).status).toBe(429);
    clock.advance(QUARTER - 1000);
    expect((await refusal(throttle.check('cy', '192.0.2.1'))).headers['Retry-After']).toBe('1');
  });
});
