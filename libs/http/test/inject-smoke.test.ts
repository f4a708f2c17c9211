// app.inject() must work under jest on every supported Node (see the cookie mapping in jest.config.mjs).
import { expect, test } from '@jest/globals';
import { createHttpApp } from '../src/app.js';
import { testLogger } from '@murmur/testing';

test('200-healthz-through-inject', async () => {
  const app = await createHttpApp({ service: 'smoke', logger: testLogger() });
  const res = await app.inject({ method: 'GET', url: '/healthz' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ok' });
  await app.close();
});
