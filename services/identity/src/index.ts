// The identity service: accounts, sign-in, app tokens, and the bus answers every other service's
// authentication relies on.
import { join } from 'node:path';
import {
  createSafeFetcher,
  JobQueue,
  outboundPolicyFromConfig,
  type Resolver,
  type ServiceDefinition,
  type Subscription,
} from '@murmur/platform';
import { buildIdentityApp } from './app.js';
import { wireBus } from './bus.js';
import { identityConfigSchema, type IdentityConfig } from './config.js';
import { appleJwksLoader } from './domain/apple.js';
import { AppleKeys } from './domain/apple-keys.js';
import { createAiRecapProbe } from './domain/ai-recap.js';
import { ClientInfoLoader } from './domain/client-info.js';
import type { IdentityContext } from './domain/context.js';
import { loadCsrfSecret } from './domain/csrf.js';
import { createIdentityLimits } from './domain/limits.js';
import { registerIdentityJobs } from './jobs/index.js';
import { createMailer } from './mail/mailer.js';
import { IdentityStore } from './store/index.js';

export { identityConfigSchema, type IdentityConfig } from './config.js';

export interface IdentityServiceOptions {
  /** Host-name resolver of outbound fetches (client_id pages); tests map made-up hosts to a local server. */
  resolve?: Resolver;
}

export function createIdentityService(
  options: IdentityServiceOptions = {},
): ServiceDefinition<IdentityConfig> {
  return {
    name: 'identity',
    configSchema: identityConfigSchema,
    async create({ config, logger, store, bus, clock }) {
      const identityStore = new IdentityStore(store);
      await identityStore.createIndexes();
      const jobs = new JobQueue(store, { service: 'identity', logger, clock });
      const fetcher = createSafeFetcher({
        policy: outboundPolicyFromConfig(config),
        baseUrl: config.PUBLIC_URL,
        ...(options.resolve ? { lookup: options.resolve } : {}),
      });
      const mailer = createMailer({
        mailUrl: config.MAIL_URL,
        from: config.MAIL_FROM,
        outboxDir: join(config.DATA_DIR, 'outbox'),
        logger,
        now: () => clock.now(),
      });
      const ctx: IdentityContext = {
        config,
        store: identityStore,
        bus,
        jobs,
        logger,
        mailer,
        limits: createIdentityLimits(store, clock, config),
        appleKeys: new AppleKeys(appleJwksLoader(config), () => clock.nowMs()),
        clientInfo: new ClientInfoLoader({ fetcher, logger, clock }),
        csrfSecret: await loadCsrfSecret(identityStore, clock.now()),
        usingAi: createAiRecapProbe({ bus, logger }, () => clock.nowMs()),
        clock,
      };
      registerIdentityJobs(jobs, ctx);
      const app = await buildIdentityApp(ctx, store);

      let subscriptions: Subscription[] = [];
      return {
        app,
        async start() {
          subscriptions = await wireBus(ctx);
          await jobs.start();
        },
        async stop() {
          await jobs.stop();
          for (const subscription of subscriptions) await subscription.unsubscribe();
          mailer.close();
          await fetcher.close();
        },
      };
    },
  };
}

export const identityService = createIdentityService();
