// The microsub service: a Microsub endpoint (docs/api/microsub.md) over the feeds service's timelines
// and follow graph, with per-user read state and removals of its own.
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildMicrosubApp } from './app.js';
import { wireBus } from './bus.js';
import { microsubConfigSchema, type MicrosubConfig } from './config.js';
import type { MicrosubContext } from './domain/context.js';
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
      return { config, logger, store: microsubStore, bus, clock } satisfies MicrosubContext;
    },
    app: buildMicrosubApp,
    wireBus,
  });
}

export const microsubService = createMicrosubService();
