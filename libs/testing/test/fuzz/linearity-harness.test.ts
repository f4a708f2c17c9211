// The linearity check the fuzz tests rely on (test-e2e/support/fuzz.ts) must tell quadratic code from
// linear code also when the largest input it may use is handled in a fraction of a millisecond — then
// each timing repeats the call, since one sub-millisecond call is timer and scheduler noise.
import { describe, expect, it } from '@jest/globals';
import {
  LINEAR_RATIO_BOUND,
  linearity,
  runOf,
  type LinearityResult,
} from '../../../../test-e2e/support/fuzz.js';

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

/**
 * The run with the highest ratio of up to three, stopping at the first above the bound. Each run keeps
 * its lowest ratio (so that load cannot make linear code look quadratic), and once in CI, with the
 * suite's other worker busy beside it, that lowest ratio of quadratic code was 33.6 (64 when quiet): a
 * false negative, which in the fuzz tests lets a case pass but here fails the suite. A harness that
 * cannot flag quadratic code fails all three.
 */
async function flaggedRun(measure: () => Promise<LinearityResult>): Promise<LinearityResult> {
  let highest = await measure();
  for (let attempt = 1; attempt < 3 && highest.ratio <= LINEAR_RATIO_BOUND; attempt++) {
    const again = await measure();
    if (again.ratio > highest.ratio) highest = again;
  }
  return highest;
}

describe('linearity()', () => {
  it('flags quadratic code', async () => {
    const result = await flaggedRun(() => linearity(quadratic, runOf('a'), { maxN: 1 << 14 }));
    expect(result.ratio).toBeGreaterThan(LINEAR_RATIO_BOUND);
  }, 120_000);

  it('flags quadratic code whose largest allowed input takes well under a millisecond', async () => {
    // 10 ms a timing instead of 5: the process's other threads (GC, the test runner) add CPU time to both
    // sides alike, which on a loaded CI machine pulled the small side up and the ratio down to 33 (at
    // load 7: 53–57 with 5 ms, 63–70 with 20 ms, at three times the test's time).
    const result = await flaggedRun(() => linearity(quadratic, runOf('a'), { maxN: 512, minMs: 10 }));
    expect(result.smallMs).toBeGreaterThanOrEqual(1);
    expect(result.ratio).toBeGreaterThan(LINEAR_RATIO_BOUND);
  }, 120_000);

  it('passes linear code whose largest allowed input takes well under a millisecond', async () => {
    const result = await linearity(linear, runOf('a'), { maxN: 1 << 12 });
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});
