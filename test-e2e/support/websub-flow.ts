// The hub flow through a Murmur's gateway only: a subscriber on 127.0.0.1 subscribes (with a secret)
// to ada's feed.xml, answers the verification, and receives her new post as the new feed, signed and
// with the hub and self links. The same in the single process and distributed over NATS: it proves the
// hub reads the feeds where WEBSUB_FEEDS_ORIGIN says in both run modes (docs/adr/0023-websub-hub.md).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@jest/globals';
import { eventually, xmlrpc } from './client.js';

export interface HubSide {
  gatewayUrl: string;
  adminToken: string;
}

export async function runWebsubFlow(side: HubSide): Promise<void> {
  const res = await fetch(`${side.gatewayUrl}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${side.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', email: 'ada@example.test' }),
  });
  expect(res.status).toBe(201);
  const { token } = (await res.json()) as { token: string };
  const topic = `${side.gatewayUrl}/sites/ada/feed.xml`;
  await eventually(
    async () => ((await fetch(topic)).status === 200 ? true : undefined),
    "ada's feed",
    60_000,
  );

  const deliveries: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
  let verified = false;
  const server = createServer((req, reply) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET') {
        verified = url.searchParams.get('hub.topic') === topic;
        reply.writeHead(200).end(url.searchParams.get('hub.challenge') ?? '');
        return;
      }
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      reply.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const callback = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push/ada`;
  try {
    const feed = await fetch(topic);
    const link = feed.headers.get('link') ?? '';
    const hub = /<([^>]+)>; rel="hub"/.exec(link)?.[1];
    expect(hub).toBe(`${side.gatewayUrl}/websub`);
    const subscribed = await fetch(hub!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.callback': callback,
        'hub.secret': 'e2e-secret',
      }).toString(),
    });
    expect(subscribed.status).toBe(202);
    await eventually(async () => (verified ? true : undefined), 'the verification', 60_000);
    // The subscription is recorded just after the echo is read: publish until a delivery comes.
    await eventually(
      async () => {
        if (deliveries.length > 0) return true;
        await xmlrpc(side.gatewayUrl, 'metaWeblog.newPost', [
          '0',
          'ada',
          token,
          { title: 'Pushed', description: '<p>hi</p>' },
          true,
        ]);
        await new Promise((r) => setTimeout(r, 1500));
        return deliveries.length > 0 ? true : undefined;
      },
      'a delivery',
      90_000,
    );
    const d = deliveries[0]!;
    expect(d.body.toString()).toContain('Pushed');
    expect(d.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(d.headers.link).toBe(`<${hub}>; rel="hub", <${topic}>; rel="self"`);
    expect(d.headers['x-hub-signature']).toBe(
      `sha256=${createHmac('sha256', 'e2e-secret').update(d.body).digest('hex')}`,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
