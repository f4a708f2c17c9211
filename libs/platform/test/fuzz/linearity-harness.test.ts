// The linearity check the fuzz tests rely on (test-e2e/support/fuzz.ts) must tell quadratic code from
// linear code also when the largest input it may use is handled in a fraction of a millisecond — then
// each timing repeats the call, since one sub-millisecond call is timer and scheduler noise.
import { describe, expect, it } from '@jest/globals';
import { LINEAR_RATIO_BOUND, linearity, runOf } from '../../../../test-e2e/support/fuzz.js';

/** Counts pairs of equal characters: n² steps. */
function quadratic(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    for (let j = 0; j < i; j++) if (text.charCodeAt(i) === text.charCodeAt(j)) pairs++;
  }
  return pairs;
}

/** One pass: n steps. */
function linear(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum = (sum + text.charCodeAt(i)) | 0;
  return sum;
}

describe('linearity()', () => {
  it('flags quadratic code', async () => {
    const result = await linearity(quadratic, runOf('a'), { maxN: 1 << 14 });
    expect(result.ratio).toBeGreaterThan(LINEAR_RATIO_BOUND);
  });

  it('flags quadratic code whose largest allowed input takes well under a millisecond', async () => {
    const result = await linearity(quadratic, runOf('a'), { maxN: 512 });
    expect(result.smallMs).toBeGreaterThanOrEqual(1);
    expect(result.ratio).toBeGreaterThan(LINEAR_RATIO_BOUND);
  });

  it('passes linear code whose largest allowed input takes well under a millisecond', async () => {
    const result = await linearity(linear, runOf('a'), { maxN: 1 << 12 });
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});
