import { describe, expect, it } from '@jest/globals';
import { BoundedMemo } from '../../src/memo/index.js';

describe('BoundedMemo', () => {
  it('computes an answer once and gives it back after, null answers included', () => {
    const memo = new BoundedMemo<string, string | null>(10);
    let calls = 0;
    const compute = (key: string) => {
      calls++;
      return key === 'none' ? null : key.toUpperCase();
    };
    expect(memo.answer('a', compute)).toBe('A');
    expect(memo.answer('a', compute)).toBe('A');
    expect(memo.answer('none', compute)).toBeNull();
    expect(memo.answer('none', compute)).toBeNull();
    expect(calls).toBe(2);
  });

  it('never holds more than its limit: full, it starts again', () => {
    const memo = new BoundedMemo<number, number>(3);
    for (let i = 0; i < 3; i++) memo.set(i, i * 10);
    expect(memo.size).toBe(3);
    memo.set(1, 11); // a key it holds: replaced, nothing forgotten
    expect([memo.get(0), memo.get(1), memo.get(2)]).toEqual([0, 11, 20]);
    memo.set(3, 30);
    expect(memo.size).toBe(1);
    expect([memo.get(0), memo.get(3)]).toEqual([undefined, 30]);
    for (let i = 0; i < 1000; i++) memo.answer(i, (k) => k);
    expect(memo.size).toBeLessThanOrEqual(3);
    expect(memo.answer(999, () => -1)).toBe(999);
  });

  it('refuses a limit below 1', () => {
    expect(() => new BoundedMemo(0)).toThrow(RangeError);
    expect(() => new BoundedMemo(1.5)).toThrow(RangeError);
  });
});
