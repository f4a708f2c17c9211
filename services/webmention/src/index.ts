// The webmention service: receives webmentions for users' sites and posts, verifies them in the
// background, answers GET /webmention in three formats, lets users and the operator moderate, and
// sends webmentions for Murmur's own posts.
import { ParserThread, taskModuleUrl, type Resolver } from '@murmur/fetch';
import { createLimits } from '@murmur/http';
import { defineService, type ServiceDefinition } from '@murmur/runtime';
import { buildWebmentionApp } from './app.js';
import { wireBus } from './bus.js';
import { webmentionConfigSchema, type WebmentionConfig } from './config.js';
import type { WebmentionContext } from './domain/context.js';
import { HostTurns } from './domain/host-turns.js';
import { MENTION_PARSE_TIMEOUT_MS } from './domain/verify.js';
import { ResponseCache } from './domain/response-cache.js';
import { registerWebmentionJobs } from './jobs/index.js';
import { WebmentionStore } from './store/index.js';

export { webmentionConfigSchema, type WebmentionConfig } from './config.js';
export { WebmentionStore } from './store/index.js';

export interface WebmentionServiceOptions {
  /** How often the job queue looks for work (tests shorten it). Default 500 ms. */
  jobPollIntervalMs?: number;
  /** Base of the retry backoff (tests shorten it). Default 5 s. */
  jobBackoffBaseMs?: number;
  /** false: jobs are queued but no worker runs in this process (tests of the queue). Default true. */
  runJobs?: boolean;
  /** Host-name resolver of the safe fetcher (tests map names to 127.0.0.1). */
  lookup?: Resolver;
  /** How often the outbox relays (tests shorten it). Default 500 ms. */
  outboxPollIntervalMs?: number;
  /** CPU time a source's microformats parse may take (tests shorten it). Default MENTION_PARSE_TIMEOUT_MS. */
  mentionParseTimeoutMs?: number;
}

export function createWebmentionService(
  options: WebmentionServiceOptions = {},
): ServiceDefinition<WebmentionConfig> {
  return defineService({
    name: 'webmention',
    config: webmentionConfigSchema,
    jobs: { pollIntervalMs: options.jobPollIntervalMs, backoffBaseMs: options.jobBackoffBaseMs },
    runJobs: options.runJobs,
    outbox: (_config, clock) => ({ now: () => clock.now(), pollIntervalMs: options.outboxPollIntervalMs }),
    async context(rt) {
      const { config, logger, bus, jobs, clock } = rt;
      const store = new WebmentionStore(rt.store);
      await store.createIndexes();
      const parser = new ParserThread({
        module: taskModuleUrl(import.meta.url, 0, 'domain/parse-tasks.js'),
        timeoutMs: options.mentionParseTimeoutMs ?? MENTION_PARSE_TIMEOUT_MS,
        maxHeapMb: 128,
      });
      rt.onStop('parser thread', () => parser.close());
      return {
        config,
        logger,
        store,
        bus,
        outbox: rt.outbox,
        jobs,
        fetcher: rt.fetcher({ lookup: options.lookup }),
        clock,
        limits: createLimits(rt.store, clock, {
          perSourceHost: { max: config.WEBMENTION_PER_SOURCE_HOST_PER_HOUR, windowMs: 3_600_000 },
        }),
        responses: new ResponseCache(),
        hostTurns: new HostTurns(),
        parser,
      } satisfies WebmentionContext;
    },
    registerJobs: (ctx, jobs) => registerWebmentionJobs(jobs, ctx),
    app: buildWebmentionApp,
    wireBus,
  });
}

export const webmentionService = createWebmentionService();
