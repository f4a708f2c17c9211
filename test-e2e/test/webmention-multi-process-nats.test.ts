// The webmention flow with webmention, feeds and the gateway each in its own process, events over a
// real nats-server (JetStream): a site announced on the bus, a POST through the gateway, the
// verification job fetching a local source, the verified mention in GET /webmention and — carried by
// evt.webmention.mention.verified — in the user's webmentions.json feed; then the source answers 410
// and it leaves both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { identity, publishing } from '@murmur/contracts';
import { type Bus } from '@murmur/bus';
import { connectBus } from '@murmur/runtime';
import {
  describeWithNats,
  eventually,
  freePort,
  sendOverWire,
  startNatsServer,
  testLogger,
  type NatsServerHandle,
} from '@murmur/testing';
import { startSourceServer, type SourceServer } from '../../services/webmention/test/sources.js';
import { startChild, waitReady, type ChildHandle } from '../support/processes.js';

const TARGET = 'https://ada.example/2026/11/21/hello.html';

describeWithNats('webmention, multi-process over NATS', () => {
  let nats: NatsServerHandle;
  let bus: Bus;
  let sources: SourceServer;
  let gatewayUrl: string;
  const children: ChildHandle[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-webmention-'));

  beforeAll(async () => {
    nats = await startNatsServer();
    sources = await startSourceServer();
    const common = {
      BUS_URL: nats.url,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://murmur.test',
      HOST: '127.0.0.1',
    };
    const ports = {
      webmention: await freePort(),
      feeds: await freePort(),
      gateway: await freePort(),
      internal: await freePort(),
    };
    const webmention = startChild('webmention', 'services/webmention/dist/main.js', {
      ...common,
      WEBMENTION_PORT: String(ports.webmention),
      STORE_URL: `file:${join(dataDir, 'webmention-store')}`,
      DATA_DIR: join(dataDir, 'webmention-data'),
      // The local source server stands in for the web: only its name is allowed to be private.
      OUTBOUND_ALLOW_HOSTS: 'localhost',
    });
    const feeds = startChild('feeds', 'services/feeds/dist/main.js', {
      ...common,
      FEEDS_PORT: String(ports.feeds),
      STORE_URL: `file:${join(dataDir, 'feeds-store')}`,
      DATA_DIR: join(dataDir, 'feeds-data'),
    });
    const gateway = startChild('gateway', 'gateway/dist/main.js', {
      ...common,
      PORT: String(ports.gateway),
      GATEWAY_INTERNAL_PORT: String(ports.internal),
      WEBMENTION_URL: `http://127.0.0.1:${ports.webmention}`,
      FEEDS_URL: `http://127.0.0.1:${ports.feeds}`,
    });
    children.push(webmention, feeds, gateway);
    await waitReady(webmention, `http://127.0.0.1:${ports.webmention}/readyz`);
    await waitReady(feeds, `http://127.0.0.1:${ports.feeds}/readyz`);
    await waitReady(gateway, `http://127.0.0.1:${ports.gateway}/healthz`);
    gatewayUrl = `http://127.0.0.1:${ports.gateway}`;

    bus = await connectBus(nats.url, { service: 'e2e-test', logger: testLogger() });
  }, 60_000);

  /**
   * What identity and publishing would announce. A durable group only sees events published after
   * it was created, and /readyz may answer before a service's start() has subscribed, so the test
   * announces again until the services show they know (the copies are idempotent).
   */
  async function announce(): Promise<void> {
    await bus.publish(identity.userCreated, {
      user: {
        id: 1,
        username: 'ada',
        email: 'ada@example.com',
        name: 'Ada',
        fullName: 'Ada',
        avatar: '',
        bio: '',
        links: [],
        createdAt: '2026-11-21T08:00:00+00:00',
      },
    });
    await bus.publish(publishing.siteCreated, {
      site: {
        id: 1,
        userId: 1,
        username: 'ada',
        host: 'ada.example',
        url: 'https://ada.example/',
        isDefault: true,
        createdAt: '2026-11-21T08:00:00+00:00',
      },
    });
  }

  afterAll(async () => {
    for (const c of children.reverse()) await c.stop();
    await bus?.close();
    await sources?.close();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('receive → verify → GET /webmention and feeds show it; a 410 takes it away', async () => {
    sources.html(
      'localhost',
      '/reply/1',
      `<article class="h-entry"><a class="u-in-reply-to" href="${TARGET}">re</a><span class="p-author h-card">Carol</span><div class="e-content">Nice!</div></article>`,
    );
    const source = sources.url('localhost', '/reply/1');
    const post = () =>
      sendOverWire(gatewayUrl, {
        method: 'POST',
        url: '/webmention',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ source, target: TARGET }).toString(),
      });
    await eventually(
      async () => {
        await announce();
        const user = await sendOverWire(gatewayUrl, { method: 'GET', url: '/feeds/ada/webmentions.json' });
        return user.statusCode === 200 && (await post()).statusCode === 202 ? true : undefined;
      },
      15_000,
      200,
    );

    const query = `/webmention?target=${encodeURIComponent(TARGET)}&format=jf2`;
    const entry = await eventually(async () => {
      const res = await sendOverWire(gatewayUrl, { method: 'GET', url: query });
      return (res.json() as { children: Record<string, unknown>[] }).children[0];
    }, 60_000);
    expect(entry).toMatchObject({
      'wm-property': 'in-reply-to',
      'wm-source': source,
      author: { type: 'card', name: 'Carol' },
    });

    const item = await eventually(async () => {
      const res = await sendOverWire(gatewayUrl, { method: 'GET', url: '/feeds/ada/webmentions.json' });
      return res.statusCode === 200
        ? (res.json() as { items: Record<string, unknown>[] }).items[0]
        : undefined;
    }, 60_000);
    expect(item).toMatchObject({ id: String(entry['wm-id']), url: source, content_text: 'Nice!' });

    sources.set('localhost', '/reply/1', { status: 410, body: 'gone' });
    expect((await post()).statusCode).toBe(202);
    await eventually(async () => {
      const res = await sendOverWire(gatewayUrl, { method: 'GET', url: '/feeds/ada/webmentions.json' });
      return (res.json() as { items: unknown[] }).items.length === 0 ? true : undefined;
    }, 60_000);
    const after = await sendOverWire(gatewayUrl, { method: 'GET', url: query });
    expect((after.json() as { children: unknown[] }).children).toEqual([]);
  }, 90_000);
});
