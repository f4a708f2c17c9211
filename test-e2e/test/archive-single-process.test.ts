// The archive in mode 1 (everything in one process, file store in a temp dir, memory bus): a user's
// JSON Feed export uploaded through the gateway is stored under DATA_DIR, imported by the job and
// served by the public reads; the operator imports a WXR file into the same site.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startSingleProcess, type SingleProcess } from '@murmur/cli';
import { freePort } from '@murmur/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('archive in a single process (embedded file store, in-process bus)', () => {
  let murmur: SingleProcess;
  let base: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-archive-'));

  beforeAll(async () => {
    murmur = await startSingleProcess({
      PATH: process.env.PATH,
      PORT: String(await freePort()),
      GATEWAY_INTERNAL_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUS_URL: `memory:e2e-archive-${process.pid}`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PUBLIC_URL: 'http://murmur.test',
    });
    base = `http://127.0.0.1:${murmur.port}`;
  });

  afterAll(async () => {
    await murmur?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function waitFor(
    path: string,
    token: string,
  ): Promise<{ status: string; imported: number; skipped: number }> {
    for (let i = 0; i < 200; i++) {
      const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
      const state = (await res.json()) as { status: string; imported: number; skipped: number };
      if (state.status === 'complete' || state.status === 'failed') return state;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${path} never ended`);
  }

  test('200-archive-flow: import a JSON Feed as the owner and a WXR file as the operator, then read', async () => {
    const created = await fetch(`${base}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${murmur.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'hedy', email: 'hedy@example.test' }),
    });
    const { token } = (await created.json()) as { token: string };
    let siteId: number | undefined;
    for (let i = 0; i < 50 && siteId === undefined; i++) {
      const res = await fetch(`${base}/admin/sites?username=hedy`, {
        headers: { authorization: `Bearer ${murmur.adminToken}` },
      });
      siteId = ((await res.json()) as { sites?: { id: number }[] }).sites?.[0]?.id;
      if (siteId === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    expect(siteId).toBeDefined();

    const feed = {
      version: 'https://jsonfeed.org/version/1',
      title: 'Old',
      items: [
        { id: 1, title: 'Café', content_html: '<p>in Paris</p>', date_published: '2012-03-04T05:06:07Z' },
        { id: 2, content_text: 'later', date_published: '2013-01-01T00:00:00Z' },
      ],
    };
    const upload = await fetch(`${base}/imported/archive/${siteId}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/feed+json' },
      body: JSON.stringify(feed),
    });
    expect(upload.status).toBe(202);
    const { id } = (await upload.json()) as { id: string };
    expect(await waitFor(`/imported/archive/${siteId}/import/${id}`, token)).toMatchObject({
      status: 'complete',
      imported: 2,
    });

    const wxr = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/"><channel>
<item><title>From WordPress</title><link>https://old.example/?p=9</link><content:encoded><![CDATA[<p>cafe paris</p>]]></content:encoded>
<wp:post_id>9</wp:post_id><wp:post_date_gmt>2014-02-02 02:02:02</wp:post_date_gmt><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
<item><title>Draft</title><wp:post_id>10</wp:post_id><wp:status>draft</wp:status><wp:post_type>post</wp:post_type></item>
</channel></rss>`;
    const operator = await fetch(`${base}/imported/archive/${siteId}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${murmur.adminToken}`, 'content-type': 'text/xml' },
      body: wxr,
    });
    expect(operator.status).toBe(202);
    const second = (await operator.json()) as { id: string };
    expect(await waitFor(`/imported/archive/${siteId}/import/${second.id}`, murmur.adminToken)).toMatchObject(
      {
        status: 'complete',
        imported: 1,
        skipped: 1,
      },
    );

    const recent = await fetch(`${base}/imported/archive/${siteId}/recent.json`, {
      headers: { origin: 'https://x.example' },
    });
    expect(recent.status).toBe(200);
    expect(recent.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await recent.json()) as { items: { id: string }[] };
    expect(body.items.map((i) => i.id)).toEqual(['9', '2', '1']);
    const search = (await (
      await fetch(`${base}/imported/archive/${siteId}/search.json?q=CAFE%20paris`)
    ).json()) as {
      items: { id: string }[];
    };
    expect(search.items.map((i) => i.id)).toEqual(['9', '1']);
    expect(await (await fetch(`${base}/imported/archive/${siteId}/years.json`)).json()).toEqual([
      2012, 2013, 2014,
    ]);
  });
});
