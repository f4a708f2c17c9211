// Push with identity, publishing, feeds, push and the gateway each in its own process, events over a
// real nats-server (JetStream durable groups), and APNs played by a local HTTP/2 TLS stand-in whose
// self-signed certificate the push process trusts the production way: NODE_EXTRA_CA_CERTS.
// bob mentions ada → one notification per ada device, none to bob; bob follows ada → one each.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import {
  describeWithNats,
  eventually,
  freePort,
  startNatsServer,
  type NatsServerHandle,
} from '@murmur/testing';
import { makeTestKey, startApnsStandIn, type ApnsStandIn } from '../../services/push/test/apns-stand-in.js';
import { startChild, waitReady, type ChildHandle } from '../support/processes.js';

const KEY_ID = 'KEY1234567';
const hex = (n: number) => n.toString(16).padStart(64, 'a');

describeWithNats('push, multi-process over NATS', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-push-'));
  const adminToken = randomBytes(32).toString('base64url');
  const key = makeTestKey();
  const children: ChildHandle[] = [];
  let nats: NatsServerHandle;
  let apns: ApnsStandIn;
  let url: string;

  beforeAll(async () => {
    nats = await startNatsServer();
    apns = await startApnsStandIn({ [KEY_ID]: key.publicKey });
    const caFile = join(dataDir, 'apns-stand-in.pem');
    writeFileSync(caFile, apns.ca);
    const common = {
      BUS_URL: nats.url,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://murmur.test',
      HOST: '127.0.0.1',
    };
    const urls: Record<string, string> = {};
    const ready: Array<[ChildHandle, string]> = [];
    for (const name of ['identity', 'publishing', 'feeds', 'push'] as const) {
      const port = await freePort();
      const child = startChild(name, `services/${name}/dist/main.js`, {
        ...common,
        [`${name.toUpperCase()}_PORT`]: String(port),
        STORE_URL: `file:${join(dataDir, `${name}-store`)}`,
        DATA_DIR: join(dataDir, `${name}-data`),
        MURMUR_ADMIN_TOKEN: adminToken,
        ...(name === 'push'
          ? {
              PUSH_APNS_PRODUCTION_URL: apns.url,
              PUSH_APNS_SANDBOX_URL: apns.url,
              NODE_EXTRA_CA_CERTS: caFile,
            }
          : {}),
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
    for (const [child, readyUrl] of ready) await waitReady(child, readyUrl);
    await waitReady(gateway, `http://127.0.0.1:${internalPort}/readyz`);
    url = `http://127.0.0.1:${gatewayPort}`;
  }, 90_000);

  afterAll(async () => {
    for (const c of children.reverse()) await c.stop();
    await apns?.close();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as any };
  };

  test('200-push-flow: mention and follow notify every ada device once, never bob', async () => {
    const app = await call('PUT', '/admin/push/apps/Murmur', adminToken, {
      team_id: 'TEAM123456',
      key_id: KEY_ID,
      key: key.pem,
      topic: 'org.murmur.app',
      default: true,
    });
    expect(app.status).toBe(201);
    expect(JSON.stringify(app.json)).not.toContain('PRIVATE KEY');
    const users: Record<string, { id: number; token: string }> = {};
    for (const username of ['ada', 'bob']) {
      const res = await call('POST', '/admin/users', adminToken, {
        username,
        email: `${username}@example.com`,
      });
      expect(res.status).toBe(201);
      users[username] = res.json;
    }
    for (const [who, token] of [
      ['ada', hex(1)],
      ['ada', hex(2)],
      ['bob', hex(3)],
    ] as const) {
      const res = await call(
        'POST',
        `/users/push/register?device_token=${token}&push_env=prod`,
        users[who]!.token,
      );
      expect(res.status).toBe(201);
    }

    const xml =
      `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>` +
      `<param><value><string>0</string></value></param><param><value><string>bob</string></value></param>` +
      `<param><value><string>${users.bob!.token}</string></value></param>` +
      `<param><value><struct><member><name>description</name><value><string>Hi @ada!</string></value></member></struct></value></param>` +
      `<param><value><boolean>1</boolean></value></param></params></methodCall>`;
    const posted = await fetch(`${url}/xmlrpc`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: xml,
    });
    expect(await posted.text()).not.toContain('<fault>');
    await eventually(async () => (apns.requests.length >= 2 ? true : undefined), 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(apns.requests.map((r) => r.token).sort()).toEqual([hex(1), hex(2)]);
    expect(apns.requests[0]!.payload.aps.alert).toBe('@bob mentioned you: Hi @ada!');
    expect(apns.requests[0]!.jwt).toMatchObject({ alg: 'ES256', kid: KEY_ID, iss: 'TEAM123456' });

    apns.requests.length = 0;
    expect((await call('POST', '/users/follow', users.bob!.token, { username: 'ada' })).status).toBe(200);
    await eventually(async () => (apns.requests.length >= 2 ? true : undefined), 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(apns.requests.map((r) => r.payload.aps.alert)).toEqual([
      '@bob started following you',
      '@bob started following you',
    ]);
    const log = await call('GET', `/admin/push/log?user_id=${users.ada!.id}`, adminToken);
    expect(log.json.deliveries.map((d: { outcome: string }) => d.outcome)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'delivered',
    ]);
  }, 60_000);
});
