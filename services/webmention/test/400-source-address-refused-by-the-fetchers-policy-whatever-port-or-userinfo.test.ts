// The source's address literal is judged on its own, by the fetcher's one address policy (issue 37): a
// port or user info no longer hides a forbidden address (`http://127.0.0.2:22/x` was accepted, a job
// queued), and an address the operator allows (OUTBOUND_ALLOW_PRIVATE, OUTBOUND_ALLOW_HOSTS,
// docs/configuration.md) is accepted at receive time as it is at fetch time, so two local development
// sites can exchange webmentions by address. 127.0.0.2 stands for every forbidden address.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sendOverWire } from '@murmur/testing';
import { ADA_POST, hEntry, SOURCE_HOSTS, startHarness, withSites, type Harness } from './harness.js';

const REFUSED = 'source must not be a loopback, private or link-local address';

const post = (h: Harness, source: string, target = ADA_POST) =>
  sendOverWire(h.url, {
    method: 'POST',
    url: '/webmention',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ source, target }).toString(),
  });

describe('a forbidden address literal is refused whatever its port or user info', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ runJobs: false });
    await withSites(h);
  });
  afterAll(() => h.stop());

  it.each([
    'http://127.0.0.2:22/x',
    'http://[::1]:25/x',
    'http://[::ffff:127.0.0.2]:25/x',
    'http://0x7f.0.0.2:8080/x',
    'http://u:p@127.0.0.2:8080/x',
    'http://u@127.0.0.2/x',
    'https://127.0.0.2:443/x',
  ])('%s → 400 with the documented reason, and no job', async (source) => {
    const res = await post(h, source);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(REFUSED);
    expect(await h.jobsOf('webmention.mention.verify')).toHaveLength(0);
  });

  it('sanity: a host name with the same port and user info is accepted (its address is checked when fetched)', async () => {
    expect((await post(h, 'http://u:p@carol.example:8080/x')).statusCode).toBe(202);
  });
});

describe('an address the operator allows is accepted, as the fetch accepts it', () => {
  const allowed = async (env: Record<string, string>) => {
    const h = await startHarness({ env });
    await withSites(h);
    return h;
  };

  it('OUTBOUND_ALLOW_HOSTS=…,127.0.0.1: a source at http://127.0.0.1:PORT/ is accepted and verified; 127.0.0.2 still refused', async () => {
    const h = await allowed({ OUTBOUND_ALLOW_HOSTS: [...SOURCE_HOSTS, '127.0.0.1'].join(',') });
    try {
      h.sources.html('127.0.0.1', '/reply', hEntry(`<a href="${ADA_POST}">hello</a>`));
      const source = h.sources.url('127.0.0.1', '/reply');
      expect((await post(h, source)).statusCode).toBe(202);
      expect((await h.waitForStatus(source, ADA_POST, ['verified', 'blocked', 'failed'])).status).toBe(
        'verified',
      );
      expect((await post(h, `http://127.0.0.2:${h.sources.port}/reply`)).body).toBe(REFUSED);
    } finally {
      await h.stop();
    }
  });

  it('OUTBOUND_ALLOW_PRIVATE=true: a source at http://127.0.0.1:PORT/ is accepted and verified', async () => {
    const h = await allowed({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    try {
      h.sources.html('127.0.0.1', '/private', hEntry(`<a href="${ADA_POST}">hello</a>`));
      const source = h.sources.url('127.0.0.1', '/private');
      expect((await post(h, source)).statusCode).toBe(202);
      expect((await h.waitForStatus(source, ADA_POST, ['verified', 'blocked', 'failed'])).status).toBe(
        'verified',
      );
    } finally {
      await h.stop();
    }
  });
});
