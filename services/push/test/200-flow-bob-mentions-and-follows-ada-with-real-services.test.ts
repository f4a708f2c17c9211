// The whole path with the real services: identity, publishing, feeds and push behind the gateway on
// one memory bus, APNs played by the local stand-in. ada registers two phones and bob one through the
// gateway; bob publishes a post mentioning ada over XML-RPC → exactly one delivery per ada device and
// none to bob; bob follows ada → one "new follower" per ada device.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { type Bus } from '@murmur/bus';
import { connectBus } from '@murmur/runtime';
import {
  eventually,
  freePort,
  sendOverWire,
  testLogger,
  testServiceEnv,
  testServices,
  type TestServices,
} from '@murmur/testing';
import { createFeedsService } from '@murmur/feeds';
import { startTestGateway, type TestGateway } from '@murmur/gateway/testing';
import { createIdentityService } from '@murmur/identity';
import { createPublishingService } from '@murmur/publishing';
import { createPushService } from '../src/index.js';
import { makeTestKey, startApnsStandIn, type ApnsStandIn } from './apns-stand-in.js';
import { ADMIN_TOKEN, devHex, KEY_ID, TEAM_ID, TOPIC } from './harness.js';

let bus: Bus;
let apns: ApnsStandIn;
let services: TestServices;
let gateway: TestGateway;
let url: string;

beforeAll(async () => {
  const logger = testLogger();
  const busUrl = `memory:push-flow-${randomUUID()}`;
  bus = await connectBus(busUrl, { service: 'push-flow', logger });
  const key = makeTestKey();
  apns = await startApnsStandIn({ [KEY_ID]: key.publicKey });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  services = testServices({
    bus,
    logger,
    env: {
      ...testServiceEnv({ busUrl, publicUrl: url, adminToken: ADMIN_TOKEN }),
      PUSH_APNS_PRODUCTION_URL: apns.url,
      PUSH_APNS_SANDBOX_URL: apns.url,
    },
  });
  const targets = {
    identity: (await services.start(createIdentityService(), { store: 'identity' })).url,
    publishing: (
      await services.start(createPublishingService({ jobPollIntervalMs: 50 }), { store: 'publishing' })
    ).url,
    feeds: (await services.start(createFeedsService({ jobPollIntervalMs: 50 }), { store: 'feeds' })).url,
    push: (
      await services.start(createPushService({ jobPollIntervalMs: 50, apnsCa: apns.ca }), { store: 'push' })
    ).url,
  };
  gateway = await startTestGateway({ port, targets, logger });
  const app = await call('PUT', '/admin/push/apps/Murmur', ADMIN_TOKEN, {
    team_id: TEAM_ID,
    key_id: KEY_ID,
    key: key.pem,
    topic: TOPIC,
    default: true,
  });
  expect(app.statusCode).toBe(201);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await services?.stop();
  await bus?.close();
  await apns?.close();
});

function call(method: string, path: string, token?: string, payload?: unknown) {
  return sendOverWire(url, {
    method,
    url: path,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function createUser(username: string): Promise<{ id: number; token: string }> {
  const res = await call('POST', '/admin/users', ADMIN_TOKEN, { username, email: `${username}@example.com` });
  expect(res.statusCode).toBe(201);
  return res.json();
}

async function xmlrpcNewPost(username: string, token: string, text: string): Promise<string> {
  const xml =
    `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>` +
    `<param><value><string>0</string></value></param>` +
    `<param><value><string>${username}</string></value></param>` +
    `<param><value><string>${token}</string></value></param>` +
    `<param><value><struct><member><name>description</name><value><string>${text}</string></value></member></struct></value></param>` +
    `<param><value><boolean>1</boolean></value></param></params></methodCall>`;
  const res = await sendOverWire(url, {
    method: 'POST',
    url: '/xmlrpc',
    headers: { 'content-type': 'text/xml' },
    payload: xml,
  });
  expect(res.body).not.toContain('<fault>');
  return /<(?:string|int|i4)>(\d+)<\//.exec(res.body)![1]!;
}

test('bob mentions ada → one delivery per ada device, none to bob; bob follows ada → one "new follower" each', async () => {
  const ada = await createUser('ada');
  const bob = await createUser('bob');
  for (const [who, token] of [
    [ada, devHex(0xa1)],
    [ada, devHex(0xa2).toUpperCase()],
    [bob, devHex(0xb1)],
  ] as const) {
    const res = await call('POST', `/users/push/register?device_token=${token}&push_env=prod`, who.token);
    expect(res.statusCode).toBe(201);
  }
  const info = await call('GET', '/users/push/info?push_env=production', ada.token);
  expect(info.json().map((d: { app_name: string }) => d.app_name)).toEqual(['Murmur', 'Murmur']);

  const postId = await xmlrpcNewPost('bob', bob.token, 'Hello @ada, see you at @bob’s place');
  await eventually(async () => (apns.requests.length >= 2 ? true : undefined), 10_000);
  await new Promise((r) => setTimeout(r, 300));
  expect(apns.requests.map((r) => r.token).sort()).toEqual([devHex(0xa1), devHex(0xa2)]);
  for (const r of apns.requests) {
    expect(r.payload).toMatchObject({
      aps: { alert: expect.stringMatching(/^@bob mentioned you: Hello @ada/), sound: 'default' },
      post_id: postId,
      from_user: { username: 'bob' },
    });
    expect(r.headers['apns-topic']).toBe(TOPIC);
  }

  apns.requests.length = 0;
  expect((await call('POST', '/users/follow', bob.token, { username: 'ada' })).statusCode).toBe(200);
  await eventually(async () => (apns.requests.length >= 2 ? true : undefined), 10_000);
  await new Promise((r) => setTimeout(r, 300));
  expect(apns.requests.map((r) => r.token).sort()).toEqual([devHex(0xa1), devHex(0xa2)]);
  expect(apns.requests.map((r) => r.payload.aps.alert)).toEqual([
    '@bob started following you',
    '@bob started following you',
  ]);

  const log = await call('GET', `/admin/push/log?user_id=${bob.id}`, ADMIN_TOKEN);
  expect(log.statusCode).toBe(200);
  expect(log.json().deliveries).toEqual([]);
});
