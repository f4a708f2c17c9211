import { describe, expect, it } from '@jest/globals';
import { MicrosecondClock } from '../../src/time/index.js';

describe('MicrosecondClock', () => {
  it('reads the wall clock in microseconds', () => {
    const clock = new MicrosecondClock(() => 1_795_249_800_123);
    expect(clock.now()).toBe(1_795_249_800_123_000n);
  });

  it('values taken within one millisecond still increase by 1 µs', () => {
    const clock = new MicrosecondClock(() => 1_000);
    expect([clock.now(), clock.now(), clock.now()]).toEqual([1_000_000n, 1_000_001n, 1_000_002n]);
  });

  it('never goes backwards when the wall clock does', () => {
    let wall = 5_000;
    const clock = new MicrosecondClock(() => wall);
    expect(clock.now()).toBe(5_000_000n);
    wall = 4_000;
    expect(clock.now()).toBe(5_000_001n);
    wall = 6_000;
    expect(clock.now()).toBe(6_000_000n);
  });

  it('follows the real clock by default and is strictly increasing', () => {
    const clock = new MicrosecondClock();
    const before = BigInt(Date.now()) * 1000n;
    const values = Array.from({ length: 1000 }, () => clock.now());
    expect(values[0]! >= before).toBe(true);
    for (let i = 1; i < values.length; i++) expect(values[i]! > values[i - 1]!).toBe(true);
  });
});
