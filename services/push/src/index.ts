// The push service: device registration for the users' phones, and delivery of notifications
// (mentions, replies, webmentions, new followers) through APNs with operator-registered credentials.
import { ConcurrencyLimit, JobQueue, type ServiceDefinition, type Subscription } from '@murmur/platform';
import { buildPushApp } from './app.js';
import { wireBus } from './bus.js';
import { pushConfigSchema, type PushConfig } from './config.js';
import { ApnsSender } from './domain/apns/sender.js';
import type { PushContext } from './domain/context.js';
import { DeliveryLogWriter } from './domain/delivery-log-writer.js';
import { registerPushJobs } from './jobs/index.js';
import { PushStore } from './store/index.js';

export { pushConfigSchema, type PushConfig } from './config.js';
export { PushStore } from './store/index.js';
export type { PushContext } from './domain/context.js';

export interface PushServiceOptions {
  /** How often the job queue looks for work (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
  /**
   * Tests only: the certificate authority of a local APNs stand-in. Deployments trust Node's store
   * (and NODE_EXTRA_CA_CERTS), never this.
   */
  apnsCa?: string | Buffer;
  /** Tests only: the certificate authority of a local Web Push service stand-in. */
  webPushCa?: string | Buffer;
  /** Receives the context once built (tests and the benchmark observe the sender through it). */
  onContext?: (ctx: PushContext) => void;
}

export function createPushService(options: PushServiceOptions = {}): ServiceDefinition<PushConfig> {
  return {
    name: 'push',
    configSchema: pushConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const pushStore = new PushStore(store);
      await pushStore.createIndexes();
      const jobs = new JobQueue(store, {
        service: 'push',
        logger,
        clock,
        // The first retry of a delivery comes after a minute or more (half to all of the base).
        backoffBaseMs: config.PUSH_RETRY_BASE_MS,
        ...(options.jobPollIntervalMs === undefined ? {} : { pollIntervalMs: options.jobPollIntervalMs }),
      });
      const apns = new ApnsSender({
        baseUrls: { production: config.PUSH_APNS_PRODUCTION_URL, sandbox: config.PUSH_APNS_SANDBOX_URL },
        clock,
        logger,
        ...(options.apnsCa === undefined ? {} : { ca: options.apnsCa }),
      });
      const ctx: PushContext = {
        config,
        logger,
        store: pushStore,
        bus,
        jobs,
        clock,
        apns,
        apnsStreams: new ConcurrencyLimit(config.PUSH_DELIVERY_CONCURRENCY),
        deliveryLog: new DeliveryLogWriter(pushStore),
        appCache: new Map(),
        ...(options.webPushCa === undefined ? {} : { webPushCa: options.webPushCa }),
      };
      registerPushJobs(jobs, ctx);
      options.onContext?.(ctx);
      const app = await buildPushApp(ctx, store);

      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          subscriptions = await wireBus(ctx);
          await jobs.start();
        },
        async stop() {
          await jobs.stop();
          for (const subscription of subscriptions.reverse()) await subscription.unsubscribe();
          await apns.close();
        },
      };
    },
  };
}

export const pushService = createPushService();
