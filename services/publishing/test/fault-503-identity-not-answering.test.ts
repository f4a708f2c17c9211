// When identity does not answer, XML-RPC calls get a fault saying the service is temporarily unavailable
// (faultCode 503, the HTTP status the platform uses for a bus failure), never a 500 "Internal error":
// both for the login itself and for a lookup after a login that was still cached. Site pages are still
// drawn, without what only identity knows (the owner's photo).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { type Bus } from '@murmur/bus';
import { connectBus, startService, type RunningService } from '@murmur/runtime';
import { sendOverWire, startFakeIdentity, testLogger, type FakeIdentity } from '@murmur/testing';
import { createPublishingService, type PublishingConfig } from '../src/index.js';
import { callXmlRpc } from './http.js';

let bus: Bus;
let fake: FakeIdentity;
let publishing: RunningService<PublishingConfig>;

beforeAll(async () => {
  const logger = testLogger();
  bus = await connectBus(`memory:publishing-503-${randomUUID()}`, { service: 'test', logger });
  fake = await startFakeIdentity(bus, {
    users: [{ id: 1, username: 'ada' }],
    tokens: [{ token: 'ada-app', userId: 1 }],
  });
  publishing = await startService(createPublishingService({ jobPollIntervalMs: 100 }), {
    env: { STORE_URL: 'memory:', BUS_URL: 'memory:', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://murmur.test' },
    bus,
    logger,
    port: 0,
    host: '127.0.0.1',
  });
});
afterAll(async () => {
  await publishing.stop();
  await bus.close();
});

it('a login while identity is away → fault 503; a cached login whose lookup fails → fault 503', async () => {
  // Logged in once (cached for a few seconds), then identity goes away.
  const first = await callXmlRpc(publishing.url, 'blogger.getUsersBlogs', ['key', 'ada', 'ada-app']);
  expect(first.fault).toBeUndefined();
  await fake.stop();

  const cached = await callXmlRpc(publishing.url, 'blogger.getUserInfo', ['key', 'ada', 'ada-app']);
  expect(cached.statusCode).toBe(200);
  expect(cached.fault).toEqual({
    faultCode: 503,
    faultString: 'The identity service is not answering; try again shortly.',
  });

  const fresh = await callXmlRpc(publishing.url, 'metaWeblog.getRecentPosts', ['0', 'bob', 'bob-app', 5]);
  expect(fresh.statusCode).toBe(200);
  expect(fresh.fault).toEqual({ faultCode: 503, faultString: 'Authentication is temporarily unavailable.' });
});

it("a site page while identity is away is drawn without the owner's photo, not refused", async () => {
  // Ada's site exists (her first call made it); publishing has no copy of her profile (this fake
  // identity announces nothing), so the page asks identity, which is gone.
  for (let i = 0; i < 2; i++) {
    const res = await sendOverWire(publishing.url, { url: '/sites/ada/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('class="h-card"');
    expect(res.body).not.toContain('u-photo');
  }
});
