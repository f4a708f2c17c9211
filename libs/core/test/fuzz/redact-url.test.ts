// Log redaction runs on every logged string that looks like a URL, request URLs included: its time stays
// linear in the string's length, and the secret parameters are still masked.
import { describe, expect, it } from '@jest/globals';
import { redactUrl } from '../../src/log/redact.js';
import { LINEAR_RATIO_BOUND, linearity, runOf } from '../../../../test-e2e/support/fuzz.js';

describe('redactUrl time stays linear in input size', () => {
  it.each([
    ['a run of ";" (no "=")', runOf(';', '/x?')],
    ['a parameter name of "["', runOf('[', '/x?token', '=1')],
    ['a run of "?a"', runOf('?a')],
    ['a run of "&token[0]=x"', runOf('&token[0]=x', '/x?')],
  ] as const)('%s', async (_name, shape) => {
    const result = await linearity((text: string) => redactUrl(text), shape, { maxN: 1 << 16 });
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});

describe('redactUrl masks the same parameters', () => {
  it.each([
    ['/x?token=abc&page=2', '/x?token=***&page=2'],
    ['/x?a=1;token=abc', '/x?a=1;token=***'],
    ['/x?a;token=abc', '/x?a;token=***'],
    ['/x?token[0]=abc&code[]=def', '/x?token[0]=***&code[]=***'],
    ['/x?token[a[b]=abc', '/x?token[a[b]=***'],
    ['/x?tok[x]en[0]=abc', '/x?tok[x]en[0]=abc'],
  ])('%s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});
