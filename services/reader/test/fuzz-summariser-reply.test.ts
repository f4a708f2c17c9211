// The summariser's reply comes from a model fed with feed content: unwrapping its code fence takes time
// linear in the reply's length, and the fence is still removed.
import { describe, expect, it } from '@jest/globals';
import { withoutCodeFence } from '../src/domain/summariser.js';
import { LINEAR_RATIO_BOUND, linearity, runOf } from '../../../test-e2e/support/fuzz.js';

describe('withoutCodeFence', () => {
  it.each([
    ['a run of spaces before text', runOf(' ', '{}', 'x')],
    ['a run of spaces and backticks', runOf(' `')],
    ['a run of newlines before a fence', runOf('\n', '```json\n{}', '```')],
  ] as const)('time stays linear: %s', async (_name, shape) => {
    const result = await linearity(withoutCodeFence, shape, { maxN: 1 << 16 });
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });

  it.each([
    ['```json\n{"a":1}\n```\n', '{"a":1}'],
    ['  ```\n{"a":1}```', '{"a":1}'],
    ['{"a":1}  ', '{"a":1}  '],
    ['````', '`'],
  ])('%j → %j', (reply, unwrapped) => {
    expect(withoutCodeFence(reply)).toBe(unwrapped);
  });
});
