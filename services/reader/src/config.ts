// The reader's environment: the base variables every service reads, its port, and its own settings.
// Each variable is described in services/reader/README.md and docs/configuration.md.
import { z } from 'zod';
import { baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';

export const readerConfigSchema = z
  .object({
    ...baseConfigShape,
    ...serviceConfigShape('reader'),
    /** Unstarred entries older than this many days are deleted. */
    READER_RETENTION_DAYS: envVar.int({ min: 1, max: 36_500 }).default(90),
    /** Polling interval of a feed before its posting rate is known. */
    READER_POLL_DEFAULT_MINUTES: envVar.int({ min: 1, max: 10_080 }).default(60),
    /** Bounds of the adaptive polling interval. */
    READER_POLL_MIN_MINUTES: envVar.int({ min: 1, max: 10_080 }).default(15),
    READER_POLL_MAX_MINUTES: envVar.int({ min: 1, max: 10_080 }).default(1440),
    /** Feed refresh jobs one process runs at once. */
    READER_POLL_CONCURRENCY: envVar.int({ min: 1, max: 256 }).default(8),
    /** Concurrent requests to one host (feed polling and discovery), per process. */
    READER_FETCH_PER_HOST: envVar.int({ min: 1, max: 64 }).default(2),
    READER_SUBSCRIPTIONS_PER_USER: envVar.int({ min: 1, max: 100_000 }).default(5000),
    /**
     * Per verified user, counted in the store (shared by replicas): subscription creates per minute,
     * OPML imports per hour, recap POSTs per minute.
     */
    READER_SUBSCRIBE_LIMIT_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(30),
    READER_IMPORT_LIMIT_PER_HOUR: envVar.int({ min: 1, max: 1_000_000 }).default(5),
    READER_RECAP_LIMIT_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(60),
    /**
     * Entries carry an `extracted_content_url` whose article the feeds service extracts; turn off when
     * the feeds service is not deployed. Its misses fetch pages: limited per client address per minute.
     */
    READER_EXTRACTED_CONTENT: envVar.bool().default(true),
    READER_EXTRACT_LIMIT_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(60),
    /** Users whose reading state (subscriptions, timeline, unread and starred sets) is kept in memory. */
    READER_VIEW_CACHE_USERS: envVar.int({ min: 1, max: 1_000_000 }).default(500),
    /**
     * OpenAI-compatible chat-completions URL of the optional recap summariser; unset → the extractive
     * builder only. A private address must also be listed in OUTBOUND_ALLOW_HOSTS.
     */
    READER_LLM_URL: envVar.httpUrl().optional(),
    READER_LLM_MODEL: envVar.string().default('gpt-4o-mini'),
    READER_LLM_API_KEY: envVar.string().optional(),
    /**
     * Subscribe to the WebSub hub a polled feed names, with a callback on PUBLIC_URL (which the hub must
     * be able to reach); off → polling only.
     */
    READER_WEBSUB: envVar.bool().default(true),
    /** Parse fetched feeds and sanitise their items on a worker thread (feeds/parsing.ts); default: on the event loop. */
    READER_PARSE_THREAD: envVar.bool().default(false),
    /** hub.lease_seconds asked for; the hub decides, and the reader renews before the granted lease ends. */
    READER_WEBSUB_LEASE_SECONDS: envVar.int({ min: 300, max: 31_536_000 }).default(864_000),
  })
  .superRefine((config, ctx) => {
    if (config.READER_POLL_MIN_MINUTES > config.READER_POLL_MAX_MINUTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['READER_POLL_MIN_MINUTES'],
        message: 'must not be larger than READER_POLL_MAX_MINUTES',
      });
    }
  });

export type ReaderConfig = z.output<typeof readerConfigSchema>;
