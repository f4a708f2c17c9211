// The documents of the push service's collections (services/push/README.md explains their shapes).

export const PUSH_ENVS = ['production', 'sandbox'] as const;
export type PushEnv = (typeof PUSH_ENVS)[number];

/** A registered device: unique per (token, pushEnv, appName); ids grow, so `_id` order is age order. */
export interface DeviceDoc {
  _id: number;
  userId: number;
  /** As registered; hex tokens lower-cased. */
  token: string;
  pushEnv: PushEnv;
  appName: string;
  createdAt: Date;
  [key: string]: unknown;
}

/** Operator-registered APNs credentials of one app. The key never leaves this collection but to sign. */
export interface AppDoc {
  /** The app's name (`app_name`), matched exactly. */
  _id: string;
  teamId: string;
  keyId: string;
  /** The `.p8` private key (PKCS#8 PEM). Never logged, never returned. */
  key: string;
  /** The app's bundle id, sent as `apns-topic`. */
  topic: string;
  environments: PushEnv[];
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
  [key: string]: unknown;
}

/** Marks the notifications of one event to one user as queued, so a redelivered event queues nothing. */
export interface FanoutDoc {
  _id: string;
  expiresAt: Date;
  [key: string]: unknown;
}

/** A browser's push subscription (Web Push): unique per endpoint; ids grow with registration. */
export interface WebSubDoc {
  _id: number;
  userId: number;
  /** The push service's URL for this browser (https, on an allowed host). */
  endpoint: string;
  /** The browser's P-256 public key and auth secret (base64url), for RFC 8291 payload encryption. */
  p256dh: string;
  auth: string;
  createdAt: Date;
  [key: string]: unknown;
}

/** Service-wide settings: `vapid` holds the VAPID key pair, made at first use. */
export interface SettingDoc {
  _id: string;
  publicKey?: string;
  privateKey?: string;
  [key: string]: unknown;
}

export type DeliveryChannel = 'apns' | 'web';

export type DeliveryOutcome = 'delivered' | 'retry' | 'dead' | 'removed' | 'skipped';

/** One delivery attempt (kept 30 days). */
export interface DeliveryDoc {
  _id: string;
  eventId: string;
  /** `web` for a browser subscription (deviceId is then the subscription's id); absent = `apns`. */
  channel?: DeliveryChannel;
  deviceId: number;
  userId: number;
  appName: string;
  pushEnv: PushEnv;
  /** The first characters of the device token, enough for an operator to tell devices apart. */
  tokenHint: string;
  attempt: number;
  /** The HTTP status APNs answered, 0 when there was no answer (connection error, timeout). */
  status: number;
  /** APNs' `reason`, or what went wrong before or instead of an answer. */
  reason: string;
  outcome: DeliveryOutcome;
  at: Date;
  expiresAt: Date;
  [key: string]: unknown;
}
