// The push service's environment: the base variables, its port, the operator token of its admin API
// (push apps, delivery log), the APNs hosts and the limits of registration and delivery.
// services/push/README.md and docs/configuration.md describe each variable.
import { z } from 'zod';
import { adminTokenVar, baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';

export const APPLE_PRODUCTION_URL = 'https://api.push.apple.com';
export const APPLE_SANDBOX_URL = 'https://api.sandbox.push.apple.com';

/** An https base URL without a trailing slash (APNs speaks HTTP/2 over TLS only). */
const baseUrl = (fallback: string) =>
  envVar
    .httpUrl()
    .refine((url) => url.startsWith('https://'), { error: 'must be an https:// URL (APNs needs TLS)' })
    .default(fallback);

/** Push services browsers subscribe with (Chrome/Edge, Firefox, Safari, Windows); exact hosts or `*.suffix`. */
export const DEFAULT_WEB_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

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
  /**
   * Web Push: the hosts a browser subscription's endpoint may be on (exact, or `*.suffix`). The only
   * outbound addresses Web Push reaches, so a subscription cannot point Murmur at an internal service.
   */
  PUSH_WEB_ENDPOINT_HOSTS: envVar
    .list({
      test: (h) => /^(\*\.)?[A-Za-z0-9.-]+(:\d+)?$/.test(h),
      message: 'must be host names (or *.suffix)',
    })
    .default(DEFAULT_WEB_PUSH_HOSTS),
  /** Web Push: the VAPID contact (`mailto:` or `https:`); default `mailto:push@<host of PUBLIC_URL>`. */
  PUSH_VAPID_SUBJECT: envVar
    .string()
    .refine((v) => /^(mailto:|https:\/\/)/.test(v), { error: 'must start with mailto: or https://' })
    .optional(),
});

export type PushConfig = z.output<typeof pushConfigSchema>;
