// testServices, as the services' harnesses rely on it: each service on the store it is given (or a fresh
// memory store), the group's environment under its own, and stop() stopping the last started first,
// then closing only the stores the group opened.
import { expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { connectBus, openStore } from '@murmur/runtime';
import { baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';
import { createHttpApp, defineRoute } from '@murmur/http';
import type { ServiceDefinition } from '@murmur/runtime';
import { testLogger } from '../src/logger.js';
import { testServiceEnv, testServices } from '../src/services.js';

const configSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('identity'),
  GREETING: envVar.string().default('hello'),
});

function probe(name: string, events: string[]): ServiceDefinition<z.infer<typeof configSchema>> {
  return {
    name: 'identity',
    configSchema,
    async create({ config, logger, store }) {
      const close = store.close.bind(store);
      store.close = async () => {
        events.push(`${name} store closed`);
        await close();
      };
      const app = await createHttpApp({ service: 'identity', logger, store, processMetrics: false });
      await app.register(async (scope) => {
        defineRoute(scope, {
          method: 'GET',
          url: '/greeting',
          handler: async () => ({ text: `${config.GREETING} from ${name}`, publicUrl: config.PUBLIC_URL }),
        });
      });
      return {
        app,
        async stop() {
          events.push(`${name} stopped`);
        },
      };
    },
  };
}

it('starts services on the group bus and env, stops them last first, closes only the stores it opened', async () => {
  const logger = testLogger();
  const busUrl = `memory:test-services-${randomUUID()}`;
  const bus = await connectBus(busUrl, { service: 'test', logger });
  const env = testServiceEnv({ busUrl, publicUrl: 'http://murmur.test', adminToken: 'admin-token' });
  expect(env).toMatchObject({ STORE_URL: 'memory:', BUS_URL: busUrl, MURMUR_ADMIN_TOKEN: 'admin-token' });
  const events: string[] = [];
  const services = testServices({ bus, logger, env });

  const a = await services.start(probe('a', events), { store: 'a' });
  const kept = await services.open('b');
  const b = await services.start(probe('b', events), {
    store: kept,
    env: { GREETING: 'hi', PUBLIC_URL: 'http://b.test' },
  });
  const given = await openStore('memory:', { service: 'c' });
  await services.start(probe('c', events), { store: given });

  expect(await (await fetch(`${a.url}/greeting`)).json()).toEqual({
    text: 'hello from a',
    publicUrl: 'http://murmur.test',
  });
  // Its own environment over the group's.
  expect(await (await fetch(`${b.url}/greeting`)).json()).toEqual({
    text: 'hi from b',
    publicUrl: 'http://b.test',
  });

  await services.stop();
  expect(events).toEqual(['c stopped', 'b stopped', 'a stopped', 'a store closed', 'b store closed']);
  await expect(fetch(`${a.url}/greeting`)).rejects.toThrow();
  // The store the test opened itself is still open.
  await given.collection('things').insertOne({ _id: 1 });
  expect(await given.collection('things').countDocuments({})).toBe(1);
  await given.close();
  await bus.close();
});
