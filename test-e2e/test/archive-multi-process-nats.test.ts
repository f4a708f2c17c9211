// The archive in distributed mode: identity, publishing, archive and the gateway each in its own
// process, requests over a real nats-server. The ownership check (`publishing.site.get`) crosses NATS,
// the upload streams through the gateway into the archive process, the job imports it, and the
// reads answer through the gateway; a second user's import of the first user's site is 404.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { describeWithNats, freePort, startNatsServer, type NatsServerHandle } from '@murmur/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, waitReady, type ChildHandle } from '../support/processes.js';

describeWithNats('archive, multi-process over NATS', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-archive-nats-'));
  const adminToken = randomBytes(32).toString('base64url');
  const children: ChildHandle[] = [];
  let nats: NatsServerHandle | undefined;
  let base = '';

  beforeAll(async () => {
    nats = await startNatsServer();
    const common = {
      BUS_URL: nats.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      PUBLIC_URL: 'http://murmur.test',
      HOST: '127.0.0.1',
      MURMUR_ADMIN_TOKEN: adminToken,
    };
    const urls: Record<string, string> = {};
    const ready: Array<[ChildHandle, string]> = [];
    for (const name of ['identity', 'publishing', 'archive'] as const) {
      const port = await freePort();
      const child = startChild(name, `services/${name}/dist/main.js`, {
        ...common,
        [`${name.toUpperCase()}_PORT`]: String(port),
        STORE_URL: `file:${join(dataDir, `${name}-store`)}`,
        DATA_DIR: join(dataDir, `${name}-data`),
      });
      children.push(child);
      urls[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
      ready.push([child, `http://127.0.0.1:${port}/readyz`]);
    }
    const [gatewayPort, internalPort] = [await freePort(), await freePort()];
    const gateway = startChild('gateway', 'gateway/dist/main.js', {
      ...common,
      PORT: String(gatewayPort),
      GATEWAY_INTERNAL_PORT: String(internalPort),
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
      ...urls,
    });
    children.push(gateway);
    for (const [child, url] of ready) await waitReady(child, url);
    await waitReady(gateway, `http://127.0.0.1:${internalPort}/readyz`);
    base = `http://127.0.0.1:${gatewayPort}`;
  }, 60_000);

  afterAll(async () => {
    for (const c of children.reverse()) await c.stop();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function user(username: string): Promise<{ token: string; siteId: number }> {
    const created = await fetch(`${base}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.test` }),
    });
    const { token } = (await created.json()) as { token: string };
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${base}/admin/sites?username=${username}`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      const site = ((await res.json()) as { sites?: { id: number }[] }).sites?.[0];
      if (site) return { token, siteId: site.id };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no site for ${username}`);
  }

  test('200-archive-flow: import through the gateway, ownership over NATS, reads', async () => {
    const ada = await user('ada');
    const bob = await user('bob');
    const feed = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      items: Array.from({ length: 40 }, (_, i) => ({
        id: `p${i}`,
        content_html: `<p>note ${i} about café</p>`,
        date_published: new Date(Date.UTC(2016, 0, 1) + i * 86_400_000).toISOString(),
      })),
    });
    const post = (who: { token: string }, siteId: number) =>
      fetch(`${base}/imported/archive/${siteId}/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
        body: feed,
      });
    expect((await post(bob, ada.siteId)).status).toBe(404);
    const accepted = await post(ada, ada.siteId);
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    let status = '';
    for (let i = 0; i < 200 && status !== 'complete' && status !== 'failed'; i++) {
      const res = await fetch(`${base}/imported/archive/${ada.siteId}/import/${id}`, {
        headers: { authorization: `Bearer ${ada.token}` },
      });
      status = ((await res.json()) as { status: string }).status;
      if (status !== 'complete') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('complete');

    const recent = await fetch(`${base}/imported/archive/${ada.siteId}/recent.json`);
    expect(recent.status).toBe(200);
    const page = (await recent.json()) as { items: { id: string }[]; next_url?: string };
    expect(page.items).toHaveLength(25);
    expect(page.items[0]!.id).toBe('p39');
    expect(page.next_url).toBe(`http://murmur.test/imported/archive/${ada.siteId}/recent.json?offset=25`);
    const search = await fetch(`${base}/imported/archive/${ada.siteId}/search.json?q=CAFE%2039`);
    expect(((await search.json()) as { items: { id: string }[] }).items.map((i) => i.id)).toEqual(['p39']);
    const notModified = await fetch(`${base}/imported/archive/${ada.siteId}/years.json`, {
      headers: { 'if-none-match': recent.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
  }, 60_000);
});
