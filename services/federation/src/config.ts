// The federation service's environment: the base variables, its port, whether federation is on, and
// how deliveries are spread. services/federation/README.md describes each variable.
import { z } from 'zod';
import { baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';

export const federationConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('federation'),
  /**
   * false: the server does not federate — the ActivityPub and discovery routes answer 404, nothing is
   * delivered, inboxes refuse, and remote accounts cannot be followed (docs/configuration.md).
   */
  FEDERATION_ENABLED: envVar.bool().default(true),
  /** Delivery jobs (one per activity and receiving host) one process runs at once. */
  FEDERATION_DELIVERY_CONCURRENCY: envVar.int({ min: 1, max: 1024 }).default(16),
  /** Requests one delivery job sends at once to its host (a host's followers without a shared inbox). */
  FEDERATION_HOST_CONCURRENCY: envVar.int({ min: 1, max: 64 }).default(4),
  /** Attempts of a delivery before it is given up (with the backoff below: about two and a half days). */
  FEDERATION_DELIVERY_ATTEMPTS: envVar.int({ min: 1, max: 100 }).default(24),
  /** First retry of a failed delivery after half to all of this; doubling up to 6 hours. */
  FEDERATION_RETRY_BASE_MS: envVar.int({ min: 1, max: 3_600_000 }).default(60_000),
});

export type FederationConfig = z.output<typeof federationConfigSchema>;
