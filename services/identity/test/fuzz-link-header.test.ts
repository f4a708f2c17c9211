// Client metadata comes from a server the client names: reading its Link header takes time linear in
// the header's length, whatever it holds.
import { describe, expect, it } from '@jest/globals';
import { linkHeaderUrls } from '../src/domain/client-info.js';
import { LINEAR_RATIO_BOUND, linearity, runOf } from '../../../test-e2e/support/fuzz.js';

const read = (header: string) => linkHeaderUrls(header, 'redirect_uri', 'https://app.example/');

describe('linkHeaderUrls time stays linear in the header length', () => {
  it.each([
    ['a run of "<" (no ">")', runOf('<')],
    ['a run of "<a" (no ">")', runOf('<a')],
    ['many entries', runOf('</r>; rel="redirect_uri", ')],
    ['a run of "; x" parameters', runOf('; x', '</r>')],
  ] as const)('%s', async (_name, shape) => {
    const result = await linearity(read, shape, { maxN: 1 << 15 });
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });

  it('still reads the redirect URLs', () => {
    expect(
      read('<a<b>; rel="other", </cb>; rel="redirect_uri", <https://x.example/cb2>; rel=redirect_uri'),
    ).toEqual(['https://app.example/cb', 'https://x.example/cb2']);
  });
});
