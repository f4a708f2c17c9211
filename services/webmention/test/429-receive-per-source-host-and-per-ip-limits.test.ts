// The 31st POST from one source host within an hour is refused with 429 and Retry-After (text/plain);
// other hosts are unaffected. The per-address allowance is counted the same way.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADA_POST, startHarness, withSites, type Harness } from './harness.js';

describe('POST /webmention limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ runJobs: false, gateway: true, env: { WEBMENTION_PER_IP_PER_HOUR: '45' } });
    await withSites(h);
  });
  afterAll(() => h.stop());

  it('the 31st POST from one source host → 429 with Retry-After; another host still passes', async () => {
    for (let i = 1; i <= 30; i++) {
      const res = await h.send(h.sources.url('carol.example', `/r/${i}`), ADA_POST);
      expect(res.statusCode).toBe(202);
    }
    const over = await h.send(h.sources.url('carol.example', '/r/31'), ADA_POST);
    expect(over.statusCode).toBe(429);
    expect(over.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toBe('too many webmentions from carol.example; try again later');
    expect((await h.send(h.sources.url('dave.example', '/r/1'), ADA_POST)).statusCode).toBe(202);
  });

  it('past the per-address allowance (45 here) every POST from the address → 429', async () => {
    for (let i = 2; i <= 14; i++) await h.send(h.sources.url('dave.example', `/r/${i}`), ADA_POST);
    const over = await h.send(h.sources.url('erin.example', '/r/1'), ADA_POST);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });
});
