// The identity service: accounts, sign-in, app tokens, and the bus answers every other service's
// authentication relies on.
import { join } from 'node:path';
import { ParserThread, taskModuleUrl, type Resolver } from '@murmur/fetch';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildIdentityApp } from './app.js';
import { wireBus } from './bus.js';
import { identityConfigSchema, type IdentityConfig } from './config.js';
import { appleJwksLoader } from './domain/apple.js';
import { AppleKeys } from './domain/apple-keys.js';
import { createAiRecapProbe } from './domain/ai-recap.js';
import { CLIENT_PAGE_PARSE_TIMEOUT_MS, ClientInfoLoader } from './domain/client-info.js';
import type { IdentityContext } from './domain/context.js';
import { loadCsrfSecret } from './domain/csrf.js';
import { registerEventVerifiers } from './domain/events.js';
import { createIdentityLimits } from './domain/limits.js';
import { registerIdentityJobs } from './jobs/index.js';
import { createMailer } from './mail/mailer.js';
import { IdentityStore } from './store/index.js';

export { identityConfigSchema, type IdentityConfig } from './config.js';

export interface IdentityServiceOptions {
  /** Host-name resolver of outbound fetches (client_id pages); tests map made-up hosts to a local server. */
  resolve?: Resolver;
  /** CPU time the parse of one client page may take (tests shorten it). Default CLIENT_PAGE_PARSE_TIMEOUT_MS. */
  clientPageParseTimeoutMs?: number;
}

export function createIdentityService(
  options: IdentityServiceOptions = {},
): ServiceDefinition<IdentityConfig> {
  return defineService({
    name: 'identity',
    config: identityConfigSchema,
    jobs: {},
    outbox: {},
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new IdentityStore(rt.store);
      await store.createIndexes();
      const mailer = createMailer({
        mailUrl: config.MAIL_URL,
        from: config.MAIL_FROM,
        outboxDir: join(config.DATA_DIR, 'outbox'),
        logger,
        now: () => clock.now(),
      });
      rt.onStop('mailer', () => mailer.close());
      const clientPageParser = new ParserThread({
        module: taskModuleUrl(import.meta.url, 0, 'domain/client-page-tasks.js'),
        timeoutMs: options.clientPageParseTimeoutMs ?? CLIENT_PAGE_PARSE_TIMEOUT_MS,
        maxHeapMb: 128,
      });
      rt.onStop('parser thread', () => clientPageParser.close());
      const ctx: IdentityContext = {
        config,
        store,
        bus,
        jobs,
        logger,
        mailer,
        limits: createIdentityLimits(rt.store, clock, config),
        appleKeys: new AppleKeys(appleJwksLoader(config), () => clock.nowMs()),
        clientInfo: new ClientInfoLoader({
          fetcher: rt.fetcher({ lookup: options.resolve }),
          parser: clientPageParser,
          logger,
          clock,
        }),
        csrfSecret: await loadCsrfSecret(store, clock.now()),
        usingAi: createAiRecapProbe({ bus, logger }, () => clock.nowMs()),
        clock,
        outbox: rt.outbox,
      };
      registerEventVerifiers(ctx);
      return ctx;
    },
    registerJobs: (ctx, jobs) => registerIdentityJobs(jobs, ctx),
    app: buildIdentityApp,
    wireBus,
  });
}

export const identityService = createIdentityService();
