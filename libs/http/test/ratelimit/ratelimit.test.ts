import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createStoreRateLimiter } from '../../src/ratelimit.js';
import { openStore } from '@murmur/runtime';
import type { Store } from '@murmur/store';

const MINUTE = 60_000;

let store: Store;
let now: number;
const clock = () => now;

beforeEach(async () => {
  store = await openStore('memory:', { service: 'ratelimit-test' });
  // Counters expire by the store's real clock, so the test clock starts at a window boundary ahead of it.
  now = Math.ceil(Date.now() / MINUTE) * MINUTE + MINUTE;
});

afterEach(async () => {
  await store.close();
});

describe('fixed window', () => {
  it('allows max hits per window, then refuses until the window ends', async () => {
    const limiter = createStoreRateLimiter(store, {
      name: 'signin-email',
      max: 3,
      windowMs: MINUTE,
      now: clock,
    });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('ada@example.test'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3]!.retryAfterSeconds).toBe(60);

    now += 45_000;
    const later = await limiter.hit('ada@example.test');
    expect(later).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 15 });

    now += 15_000;
    expect(await limiter.hit('ada@example.test')).toEqual({
      allowed: true,
      remaining: 2,
      retryAfterSeconds: 0,
    });
  });

  it('counts keys and limiters separately', async () => {
    const a = createStoreRateLimiter(store, { name: 'a', max: 1, windowMs: MINUTE, now: clock });
    const b = createStoreRateLimiter(store, { name: 'b', max: 1, windowMs: MINUTE, now: clock });
    expect((await a.hit('k1')).allowed).toBe(true);
    expect((await a.hit('k2')).allowed).toBe(true);
    expect((await b.hit('k1')).allowed).toBe(true);
    expect((await a.hit('k1')).allowed).toBe(false);
  });

  it('peek reports without counting; reset forgets the key', async () => {
    const limiter = createStoreRateLimiter(store, {
      name: 'xmlrpc-login',
      max: 2,
      windowMs: MINUTE,
      now: clock,
    });
    expect(await limiter.peek('ada|1.2.3.4')).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
    await limiter.hit('ada|1.2.3.4');
    await limiter.hit('ada|1.2.3.4');
    expect((await limiter.peek('ada|1.2.3.4')).allowed).toBe(false);
    expect((await limiter.peek('ada|1.2.3.4')).allowed).toBe(false);
    await limiter.reset('ada|1.2.3.4');
    expect(await limiter.peek('ada|1.2.3.4')).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
  });

  it('is shared by limiters over the same store (replicas) and atomic under concurrency', async () => {
    const replicaA = createStoreRateLimiter(store, { name: 'shared', max: 10, windowMs: MINUTE, now: clock });
    const replicaB = createStoreRateLimiter(store, { name: 'shared', max: 10, windowMs: MINUTE, now: clock });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? replicaA : replicaB).hit('1.2.3.4')),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(new Set(results.map((r) => r.remaining)).has(0)).toBe(true);
  });

  it('keeps its counters in the ratelimits collection with an expiry', async () => {
    const limiter = createStoreRateLimiter(store, { name: 'n', max: 5, windowMs: MINUTE, now: clock });
    await limiter.hit('k');
    const docs = await store.collection('ratelimits').find({ name: 'n' });
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ key: 'k', count: 1, windowStart: now });
    expect((docs[0]!.expiresAt as Date).getTime()).toBe(now + MINUTE);
  });
});

describe('sliding window', () => {
  it('weights the previous window by its remaining overlap', async () => {
    const limiter = createStoreRateLimiter(store, {
      name: 'slide',
      max: 10,
      windowMs: MINUTE,
      mode: 'sliding',
      now: clock,
    });
    for (let i = 0; i < 10; i++) expect((await limiter.hit('k')).allowed).toBe(true);
    expect((await limiter.hit('k')).allowed).toBe(false);

    // A quarter into the next window, 3/4 of the previous 11 hits still count: 8.25 + 1 ≤ 10.
    now += MINUTE + 15_000;
    const first = await limiter.hit('k');
    expect(first.allowed).toBe(true);
    expect(first.remaining).toBe(0);
    // 8.25 + 2 > 10: refused, and told to wait until enough of the old window has slid out.
    const second = await limiter.hit('k');
    expect(second.allowed).toBe(false);
    expect(second.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(second.retryAfterSeconds).toBeLessThanOrEqual(45);
  });
});
