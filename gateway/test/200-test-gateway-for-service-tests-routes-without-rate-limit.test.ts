// startTestGateway (`@murmur/gateway/testing`), as the services' harnesses rely on it: the real gateway
// on 127.0.0.1 in front of the targets it is given, its rate limit off unless the test sets one.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { freePort, testLogger } from '@murmur/testing';
import { startTestGateway } from '../src/testing.js';
import { send, startFakeServices, targetsOf, type Echo, type FakeService } from './helpers.js';

let services: FakeService[];

beforeAll(async () => {
  services = await startFakeServices(['identity', 'feeds']);
});

afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
});

it('listens on the port given, routes to the targets, and never answers 429 by default', async () => {
  const port = await freePort();
  const gateway = await startTestGateway({ port, targets: targetsOf(services), logger: testLogger() });
  try {
    expect(gateway.url).toBe(`http://127.0.0.1:${port}`);
    expect((await send(gateway.url, 'GET', '/account/me')).json<Echo>().service).toBe('identity');
    // More than the default allowance of 1,200 a minute from one address.
    const statuses = new Set<number>();
    for (let batch = 0; batch < 25; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => send(gateway.url, 'GET', '/feeds/ada.json')),
      );
      for (const answer of answers) statuses.add(answer.status);
    }
    expect([...statuses]).toEqual([200]);
  } finally {
    await gateway.close();
  }
});

it('on port 0 reports the port it got; env sets the rest of its configuration', async () => {
  const gateway = await startTestGateway({
    targets: targetsOf(services),
    logger: testLogger(),
    publicUrl: 'http://murmur.test',
    env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '1' },
  });
  try {
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect((await send(gateway.url, 'GET', '/feeds/ada.json')).status).toBe(200);
    expect((await send(gateway.url, 'GET', '/feeds/ada.json')).status).toBe(429);
  } finally {
    await gateway.close();
  }
});
