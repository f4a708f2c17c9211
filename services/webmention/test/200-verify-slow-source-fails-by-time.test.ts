// A source taking 15 s fails by time (the whole exchange is capped at 10 s) and is retried; nothing is
// shown meanwhile.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADA_POST, startHarness, withSites, type Harness } from './harness.js';

describe('verification: a slow source', () => {
  let h: Harness;
  beforeAll(async () => {
    // A long backoff: the second attempt is not due before the test ends.
    h = await startHarness({ jobBackoffBaseMs: 120_000 });
    await withSites(h);
  });
  afterAll(() => h.stop());

  it('a source taking 15 s fails by time after 10 s and is queued for another attempt', async () => {
    h.sources.set('slow.example', '/slow', { delayMs: 15_000, body: `<a href="${ADA_POST}">x</a>` });
    const source = h.sources.url('slow.example', '/slow');
    const started = Date.now();
    await h.send(source, ADA_POST);
    const item = await h.waitForStatus(source, ADA_POST, ['retrying', 'failed', 'verified'], 45_000);
    const took = Date.now() - started;
    expect(item.status).toBe('retrying');
    expect(item.visible).toBe(false);
    expect(item.last_error).toMatch(/time/i);
    // Not before the 10 s limit; and not by reading the page (it answers at 15 s: that would verify).
    expect(took).toBeGreaterThanOrEqual(9_000);
  }, 60_000);
});
