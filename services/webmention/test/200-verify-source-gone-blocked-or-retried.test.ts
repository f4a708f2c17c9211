// What the source's answer does to a stored mention: a 410 or a page that lost its link removes it
// (with `…deleted`); a redirect to a private address is never followed (status `blocked`); a page over
// 1 MB is read only up to 1 MB; a 503 is retried and, after 5 attempts, the status is `failed` while
// the mention stays as it was.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { ADA_POST, hEntry, startHarness, withSites, type Harness } from './harness.js';

describe('verification: sources that change, vanish, redirect or fail', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await withSites(h);
  });
  afterAll(() => h.stop());

  const replyPage = hEntry(
    `<a class="u-in-reply-to" href="${ADA_POST}">re</a><div class="e-content">Hi</div>`,
  );
  const visibleIds = async () => {
    const res = await h.request('GET', `/webmention?target=${encodeURIComponent(ADA_POST)}`);
    return (res.json() as { items: { id: string }[] }).items.map((i) => i.id);
  };

  async function verifiedOnce(path: string) {
    h.sources.html('carol.example', path, replyPage);
    const source = h.sources.url('carol.example', path);
    await h.send(source, ADA_POST);
    const item = await h.waitForStatus(source, ADA_POST, ['verified']);
    return { source, id: item.id! };
  }

  it('a source answering 410 for a stored mention → deleted, `…deleted` emitted', async () => {
    const { source, id } = await verifiedOnce('/gone');
    expect(await visibleIds()).toContain(String(id));
    h.sources.set('carol.example', '/gone', { status: 410, body: 'gone' });
    await h.send(source, ADA_POST);
    const item = await h.waitForStatus(source, ADA_POST, ['deleted']);
    expect(item.visible).toBe(false);
    const event = await eventually(async () => h.deleted.find((e) => e.data.id === id));
    expect(event.data).toEqual({ id, source, target: ADA_POST, targetUserId: 1 });
    expect(await visibleIds()).not.toContain(String(id));
  });

  it('a source later served without the link → deleted (status no_link)', async () => {
    const { source, id } = await verifiedOnce('/lost');
    h.sources.html('carol.example', '/lost', hEntry('<div class="e-content">no link any more</div>'));
    await h.send(source, ADA_POST);
    await h.waitForStatus(source, ADA_POST, ['no_link']);
    await eventually(async () => h.deleted.find((e) => e.data.id === id));
    expect(await visibleIds()).not.toContain(String(id));
  });

  it('a returning mention keeps its wm-id and is announced as new again', async () => {
    const source = h.sources.url('carol.example', '/lost');
    h.sources.html('carol.example', '/lost', replyPage);
    await h.send(source, ADA_POST);
    const item = await h.waitForStatus(source, ADA_POST, ['verified']);
    const events = await eventually(async () => {
      const list = h.verified.filter((e) => e.data.source === source);
      return list.length === 2 ? list : undefined;
    });
    expect(item.id).toBe(events[0]!.data.id);
    expect(events[1]!.data.isNew).toBe(true);
  });

  it('a redirect to 127.0.0.2 → no request reaches that address; status blocked', async () => {
    let reached = 0;
    const forbidden = createServer((_req, res) => {
      reached++;
      res.end(`<a href="${ADA_POST}">x</a>`);
    });
    await new Promise<void>((resolve) => forbidden.listen(0, '127.0.0.2', resolve));
    try {
      const port = (forbidden.address() as AddressInfo).port;
      h.sources.set('carol.example', '/redirect', {
        status: 302,
        headers: { location: `http://127.0.0.2:${port}/x` },
      });
      const source = h.sources.url('carol.example', '/redirect');
      await h.send(source, ADA_POST);
      const item = await h.waitForStatus(source, ADA_POST, ['blocked', 'verified', 'failed']);
      expect(item.status).toBe('blocked');
      expect(item.visible).toBe(false);
      expect(reached).toBe(0);
    } finally {
      await new Promise((resolve) => forbidden.close(resolve));
    }
  });

  it('a source host name resolving to a loopback address is refused when connecting: blocked', async () => {
    // internal.example resolves to 127.0.0.1 like the others but is not on the allow-list.
    const source = `http://internal.example:${h.sources.port}/page`;
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    const item = await h.waitForStatus(source, ADA_POST, ['blocked', 'verified', 'failed', 'retrying']);
    expect(item.status).toBe('blocked');
    expect(h.sources.requests.some((r) => r.host === 'internal.example')).toBe(false);
  });

  it('a stored mention whose source now redirects to a private address is removed', async () => {
    const { source, id } = await verifiedOnce('/turned');
    h.sources.set('carol.example', '/turned', {
      status: 301,
      headers: { location: 'http://127.0.0.2:8080/' },
    });
    await h.send(source, ADA_POST);
    await h.waitForStatus(source, ADA_POST, ['blocked']);
    await eventually(async () => h.deleted.find((e) => e.data.id === id));
  });

  it('a source over 1 MB is read only up to 1 MB: a link past it is not found, one before it is', async () => {
    const pad = `<p>${'x'.repeat(1100 * 1024)}</p>`;
    h.sources.html(
      'carol.example',
      '/huge-late',
      `<html><body>${pad}<a href="${ADA_POST}">late</a></body></html>`,
    );
    h.sources.html(
      'carol.example',
      '/huge-early',
      `<html><body><a href="${ADA_POST}">early</a>${pad}${pad}</body></html>`,
    );
    const late = h.sources.url('carol.example', '/huge-late');
    const early = h.sources.url('carol.example', '/huge-early');
    await h.send(late, ADA_POST);
    await h.send(early, ADA_POST);
    expect((await h.waitForStatus(late, ADA_POST, ['no_link', 'verified', 'failed'])).status).toBe('no_link');
    expect((await h.waitForStatus(early, ADA_POST, ['no_link', 'verified', 'failed'])).status).toBe(
      'verified',
    );
  });

  it('other 4xx → source_not_found, not retried', async () => {
    h.sources.set('carol.example', '/missing', { status: 404, body: 'nope' });
    const source = h.sources.url('carol.example', '/missing');
    await h.send(source, ADA_POST);
    await h.waitForStatus(source, ADA_POST, ['source_not_found']);
    expect(h.sources.requests.filter((r) => r.path === '/missing')).toHaveLength(1);
  });

  it('503 is retried; after 5 failures the status is failed and the existing mention stays', async () => {
    const { source, id } = await verifiedOnce('/flaky');
    const before = h.sources.requests.filter((r) => r.path === '/flaky').length;
    h.sources.set('carol.example', '/flaky', { status: 503, body: 'busy' });
    await h.send(source, ADA_POST);
    const item = await h.waitForStatus(source, ADA_POST, ['failed'], 15_000);
    expect(item.last_error).toBe('source answered 503');
    expect(item.visible).toBe(true);
    expect(h.sources.requests.filter((r) => r.path === '/flaky').length - before).toBe(5);
    expect(await visibleIds()).toContain(String(id));
    expect(h.deleted.find((e) => e.data.id === id)).toBeUndefined();
  });

  it('429 is retried too, and a later success verifies', async () => {
    let calls = 0;
    h.sources.set('carol.example', '/busy', () =>
      ++calls < 3 ? { status: 429, body: 'slow down' } : { body: replyPage },
    );
    const source = h.sources.url('carol.example', '/busy');
    await h.send(source, ADA_POST);
    await h.waitForStatus(source, ADA_POST, ['verified']);
    expect(calls).toBe(3);
  });
});

describe('verification: politeness', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await withSites(h);
  });
  afterAll(() => h.stop());

  it('fetches at most one source of a host at a time, and other hosts meanwhile', async () => {
    let open = 0;
    let most = 0;
    const page = `<a href="${ADA_POST}">x</a>`;
    h.sources.set('dave.example', '/other', { body: page });
    for (let i = 0; i < 4; i++) {
      h.sources.set('erin.example', `/p/${i}`, () => {
        open++;
        most = Math.max(most, open);
        setTimeout(() => open--, 150);
        return { body: page, delayMs: 150 };
      });
    }
    for (let i = 0; i < 4; i++) await h.send(h.sources.url('erin.example', `/p/${i}`), ADA_POST);
    await h.send(h.sources.url('dave.example', '/other'), ADA_POST);
    const other = await h.waitForStatus(h.sources.url('dave.example', '/other'), ADA_POST, ['verified']);
    expect(other.status).toBe('verified');
    for (let i = 0; i < 4; i++)
      await h.waitForStatus(h.sources.url('erin.example', `/p/${i}`), ADA_POST, ['verified']);
    expect(most).toBe(1);
  });
});

describe('verification: Retry-After', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await withSites(h);
  });
  afterAll(() => h.stop());

  it('a 429 with Retry-After: 30 is not tried again for at least 30 s', async () => {
    h.sources.set('carol.example', '/later', {
      status: 429,
      headers: { 'retry-after': '30' },
      body: 'later',
    });
    const source = h.sources.url('carol.example', '/later');
    const sentAt = Date.now();
    await h.send(source, ADA_POST);
    await h.waitForStatus(source, ADA_POST, ['retrying']);
    const job = await eventually(async () => {
      const jobs = (await h.store
        .collection('jobs')
        .find({ type: 'webmention.mention.verify' })) as unknown as {
        status: string;
        attempts: number;
        runAt: Date;
      }[];
      return jobs.find((j) => j.status === 'queued' && j.attempts === 1);
    });
    expect(job.runAt.getTime() - sentAt).toBeGreaterThanOrEqual(30_000);
    expect(h.sources.requests.filter((r) => r.path === '/later')).toHaveLength(1);
  });
});
