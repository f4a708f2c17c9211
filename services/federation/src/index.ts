// The federation service: ActivityPub as Mastodon speaks it. Discovery (WebFinger, NodeInfo, actors,
// notes), delivery of local users' public posts to their followers on other servers, the inboxes
// (signed Follow, Undo, Create, Update, Delete, Like, Announce), and local users following remote
// accounts (docs/api/federation.md, docs/adr/0020-federation-activitypub.md).
import type { Resolver } from '@murmur/fetch';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildFederationApp } from './app.js';
import { wireBus } from './bus.js';
import { federationConfigSchema, type FederationConfig } from './config.js';
import type { FederationContext } from './domain/context.js';
import { KeyCache } from './domain/keys.js';
import { urlsOf } from './domain/urls.js';
import { registerFederationJobs } from './jobs/index.js';
import { FederationStore } from './store/index.js';

export { federationConfigSchema, type FederationConfig } from './config.js';
export type { FederationContext } from './domain/context.js';

/** Retries wait at most this long (the backoff doubles up to it). */
export const RETRY_MAX_MS = 6 * 3_600_000;

export interface FederationServiceOptions {
  /** How often the job queue looks for work (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
  /** How often the outbox relays (tests shorten it). Default 500 ms. */
  outboxPollIntervalMs?: number;
  /** Host-name resolver of the safe fetcher (tests map names to 127.0.0.1). */
  lookup?: Resolver;
  /** false: jobs are queued but not run in this process (tests of the queue). Default true. */
  runJobs?: boolean;
  /** Receives the context once built (the benchmark observes deliveries through it). */
  onContext?: (ctx: FederationContext) => void;
}

export function createFederationService(
  options: FederationServiceOptions = {},
): ServiceDefinition<FederationConfig> {
  return defineService({
    name: 'federation',
    config: federationConfigSchema,
    jobs: (config) => ({
      pollIntervalMs: options.jobPollIntervalMs,
      backoffBaseMs: config.FEDERATION_RETRY_BASE_MS,
      backoffMaxMs: RETRY_MAX_MS,
    }),
    runJobs: options.runJobs,
    outbox: (_config, clock) => ({ now: () => clock.now(), pollIntervalMs: options.outboxPollIntervalMs }),
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new FederationStore(rt.store);
      await store.createIndexes();
      const ctx: FederationContext = {
        config,
        logger,
        store,
        bus,
        outbox: rt.outbox,
        jobs,
        fetcher: rt.fetcher({ lookup: options.lookup }),
        clock,
        keys: new KeyCache(store),
        urls: urlsOf(config.PUBLIC_URL),
      };
      options.onContext?.(ctx);
      return ctx;
    },
    registerJobs: (ctx, jobs) => registerFederationJobs(jobs, ctx),
    app: buildFederationApp,
    wireBus,
  });
}

export const federationService = createFederationService();
