// The microsub service: a Microsub endpoint (docs/api/microsub.md) over the feeds service's timelines
// and follow graph, with per-user read state and removals of its own.
import type { ServiceDefinition, Subscription } from '@murmur/platform';
import { buildMicrosubApp } from './app.js';
import { wireBus } from './bus.js';
import { microsubConfigSchema, type MicrosubConfig } from './config.js';
import type { MicrosubContext } from './domain/context.js';
import { MicrosubStore } from './store.js';

export { microsubConfigSchema, type MicrosubConfig } from './config.js';
export { MicrosubStore } from './store.js';

export function createMicrosubService(): ServiceDefinition<MicrosubConfig> {
  return {
    name: 'microsub',
    configSchema: microsubConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const microsubStore = new MicrosubStore(store);
      await microsubStore.createIndexes();
      const ctx: MicrosubContext = { config, logger, store: microsubStore, bus, clock };
      const app = await buildMicrosubApp(ctx, store);

      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          subscriptions = await wireBus(ctx);
        },
        async stop() {
          for (const subscription of subscriptions.reverse()) await subscription.unsubscribe();
        },
      };
    },
  };
}

export const microsubService = createMicrosubService();
