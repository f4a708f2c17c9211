// The push service's environment: the base variables, its port, the operator token of its admin API
// (push apps, delivery log), the APNs hosts and the limits of registration and delivery.
// services/push/README.md and docs/configuration.md describe each variable.
import { z } from 'zod';
import { adminTokenVar, baseConfigShape, envVar, serviceConfigShape } from '@murmur/platform';

export const APPLE_PRODUCTION_URL = 'https://api.push.apple.com';
export const APPLE_SANDBOX_URL = 'https://api.sandbox.push.apple.com';

/** An https base URL without a trailing slash (APNs speaks HTTP/2 over TLS only). */
const baseUrl = (fallback: string) =>
  envVar
    .httpUrl()
    .refine((url) => url.startsWith('https://'), { error: 'must be an https:// URL (APNs needs TLS)' })
    .default(fallback);

export const pushConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('push'),
  /** Bearer token of the operator API (/admin/push/*); the API answers 403 while unset. Shared with identity. */
  MURMUR_ADMIN_TOKEN: adminTokenVar().optional(),
  /** Base URL of APNs for `production` devices (tests and staging point it at a stand-in). */
  PUSH_APNS_PRODUCTION_URL: baseUrl(APPLE_PRODUCTION_URL),
  /** Base URL of APNs for `sandbox` devices. */
  PUSH_APNS_SANDBOX_URL: baseUrl(APPLE_SANDBOX_URL),
  /** Register and unregister calls per user per minute (together). */
  PUSH_REGISTER_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(30),
  /** Deliveries one process sends at once (streams in flight over the HTTP/2 sessions). */
  PUSH_DELIVERY_CONCURRENCY: envVar.int({ min: 1, max: 1000 }).default(64),
  /** Base of the retry backoff of a delivery: retry n waits between half and all of base·2ⁿ⁻¹. */
  PUSH_RETRY_BASE_MS: envVar.int({ min: 1000, max: 3_600_000 }).default(120_000),
});

export type PushConfig = z.output<typeof pushConfigSchema>;
