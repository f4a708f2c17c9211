// The microsub service: a Microsub endpoint (docs/api/microsub.md) over the feeds service's timelines
// and follow graph, with per-user read state and removals of its own.
import { createLimits } from '@murmur/http';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildMicrosubApp } from './app.js';
import { wireBus } from './bus.js';
import { microsubConfigSchema, type MicrosubConfig } from './config.js';
import { FOLLOW_LIMIT, type MicrosubContext } from './domain/context.js';
import { MicrosubStore } from './store.js';

export { microsubConfigSchema, type MicrosubConfig } from './config.js';
export { MicrosubStore } from './store.js';

export function createMicrosubService(): ServiceDefinition<MicrosubConfig> {
  return defineService({
    name: 'microsub',
    config: microsubConfigSchema,
    async context({ config, logger, store, bus, clock }) {
      const microsubStore = new MicrosubStore(store);
      await microsubStore.createIndexes();
      // Follow and preview have their own, lower per-user limit on top of the route's: which action a
      // request is comes from its parameters, so the routes enforce it once they know.
      const limits = createLimits(store, clock, {
        [FOLLOW_LIMIT]: {
          max: config.MICROSUB_FOLLOWS_PER_MINUTE,
          windowMs: 60_000,
          message: 'Too many follow and preview requests; try again in a minute.',
        },
      });
      return { config, logger, store: microsubStore, bus, clock, limits } satisfies MicrosubContext;
    },
    app: buildMicrosubApp,
    wireBus,
  });
}

export const microsubService = createMicrosubService();
