// The push service: device registration for the users' phones, and delivery of notifications
// (mentions, replies, webmentions, new followers) through APNs with operator-registered credentials.
import { ConcurrencyLimit } from '@murmur/core';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
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
  return defineService({
    name: 'push',
    config: pushConfigSchema,
    jobs: (config) => ({
      // The first retry of a delivery comes after a minute or more (half to all of the base).
      backoffBaseMs: config.PUSH_RETRY_BASE_MS,
      pollIntervalMs: options.jobPollIntervalMs,
    }),
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new PushStore(rt.store);
      await store.createIndexes();
      const apns = new ApnsSender({
        baseUrls: { production: config.PUSH_APNS_PRODUCTION_URL, sandbox: config.PUSH_APNS_SANDBOX_URL },
        clock,
        logger,
        ...(options.apnsCa === undefined ? {} : { ca: options.apnsCa }),
      });
      rt.onStop('APNs connections', () => apns.close());
      const ctx: PushContext = {
        config,
        logger,
        store,
        bus,
        jobs,
        clock,
        apns,
        apnsStreams: new ConcurrencyLimit(config.PUSH_DELIVERY_CONCURRENCY),
        deliveryLog: new DeliveryLogWriter(store),
        appCache: new Map(),
        ...(options.webPushCa === undefined ? {} : { webPushCa: options.webPushCa }),
      };
      options.onContext?.(ctx);
      return ctx;
    },
    registerJobs: (ctx, jobs) => registerPushJobs(jobs, ctx),
    app: buildPushApp,
    wireBus,
  });
}

export const pushService = createPushService();
