// The websub service's environment: the base variables, its port, where it reads Murmur's own feeds,
// the lease bounds, the external publishers the operator allows, and the delivery budget.
// services/websub/README.md and docs/configuration.md describe each variable.
import { z } from 'zod';
import { advertisedHubUrl, baseConfigShape, envVar, serviceConfigShape, websubHubUrlVar } from '@murmur/core';

/** HMAC algorithms of `X-Hub-Signature` the WebSub recommendation names (docs/adr/0023-websub-hub.md). */
export const SIGNATURE_ALGORITHMS = ['sha256', 'sha1', 'sha384', 'sha512'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];

const DAY = 86_400;

export const websubConfigSchema = z
  .object({
    ...baseConfigShape,
    ...serviceConfigShape('websub'),
    /**
     * The hub's own URL as subscribers and feeds name it (the `rel="hub"` link of every delivery).
     * Unset: `{PUBLIC_URL}/websub`. Publishing and feeds read the same variable to advertise it.
     */
    WEBSUB_HUB_URL: websubHubUrlVar(),
    /**
     * Where the hub reads Murmur's own feeds: the gateway as this process reaches it (it serves every
     * public feed, on PUBLIC_URL's paths and on sites' own hosts by Host header). Unset:
     * `http://127.0.0.1:$PORT`, the gateway of the single process. Distributed: `http://gateway:8080`.
     */
    WEBSUB_FEEDS_ORIGIN: envVar.httpUrl().optional(),
    /** Lease when the subscriber asks for none (seconds). */
    WEBSUB_LEASE_DEFAULT_SECONDS: envVar.int({ min: 1, max: 365 * DAY }).default(10 * DAY),
    /** Shortest lease granted (a shorter request gets this one). */
    WEBSUB_LEASE_MIN_SECONDS: envVar.int({ min: 1, max: 365 * DAY }).default(3600),
    /** Longest lease granted (a longer request gets this one). */
    WEBSUB_LEASE_MAX_SECONDS: envVar.int({ min: 1, max: 365 * DAY }).default(30 * DAY),
    /**
     * Hosts whose topics external publishers may announce with `hub.mode=publish` (and subscribers may
     * then subscribe to): host names (every port), `host:port` (that port alone) or `*.suffix`. Empty: none.
     */
    WEBSUB_PUBLISHER_HOSTS: envVar
      .list({
        test: (h) => /^(\*\.)?[A-Za-z0-9.-]+(:\d+)?$/.test(h),
        message: 'must be host names, host:port or *.suffix',
      })
      .default([]),
    /** Algorithm of `X-Hub-Signature` when a subscriber gave a secret. */
    WEBSUB_SIGNATURE_ALGORITHM: z
      .enum(SIGNATURE_ALGORITHMS, { error: `must be one of ${SIGNATURE_ALGORITHMS.join(', ')}` })
      .default('sha256'),
    /** Deliveries to one callback host in flight at once (per delivery job). */
    WEBSUB_HOST_CONCURRENCY: envVar.int({ min: 1, max: 256 }).default(8),
    /** Delivery jobs (one per callback host) one process runs at once. */
    WEBSUB_DELIVERY_CONCURRENCY: envVar.int({ min: 1, max: 1024 }).default(32),
    /** Attempts of a delivery before a subscriber misses that content (the first included). */
    WEBSUB_DELIVERY_ATTEMPTS: envVar.int({ min: 1, max: 50 }).default(8),
    /** Base of the retry backoff: retry n waits between half and all of base·2ⁿ⁻¹ (at most an hour). */
    WEBSUB_RETRY_BASE_MS: envVar.int({ min: 10, max: 3_600_000 }).default(60_000),
    /** Subscription requests (subscribe, unsubscribe, publish) per client address per hour. */
    WEBSUB_REQUESTS_PER_IP_PER_HOUR: envVar.int({ min: 1, max: 1_000_000_000 }).default(600),
  })
  .superRefine((c, issue) => {
    if (c.WEBSUB_LEASE_MIN_SECONDS > c.WEBSUB_LEASE_MAX_SECONDS)
      issue.addIssue({
        code: 'custom',
        path: ['WEBSUB_LEASE_MIN_SECONDS'],
        message: 'must not be larger than WEBSUB_LEASE_MAX_SECONDS',
      });
  });

export type WebsubConfig = z.output<typeof websubConfigSchema>;

/** The hub's URL (WEBSUB_HUB_URL, else PUBLIC_URL + /websub). */
export function hubUrlOf(config: Pick<WebsubConfig, 'WEBSUB_HUB_URL' | 'PUBLIC_URL'>): string {
  // `none` turns advertising off in the feeds; the hub still names itself at its own address.
  return advertisedHubUrl(config) ?? `${config.PUBLIC_URL}/websub`;
}

/** Where the hub reads Murmur's own feeds (WEBSUB_FEEDS_ORIGIN, else the single process's gateway). */
export function feedsOriginOf(config: Pick<WebsubConfig, 'WEBSUB_FEEDS_ORIGIN' | 'PORT'>): string {
  return (config.WEBSUB_FEEDS_ORIGIN ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
}
