// What every domain function receives: configuration, the store's named queries, the bus, the job
// queue, the APNs sender (and the limit of its streams in flight), the delivery log writer and the clock.
import type { Bus } from '@murmur/bus';
import type { Clock, ConcurrencyLimit, Logger } from '@murmur/core';
import type { JobQueue } from '@murmur/jobs';
import type { PushConfig } from '../config.js';
import type { AppDoc, PushStore } from '../store/index.js';
import type { ApnsSender } from './apns/sender.js';
import type { DeliveryLogWriter } from './delivery-log-writer.js';

/** The service's VAPID key pair (domain/web-push.ts makes and reads it). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushContext {
  config: PushConfig;
  logger: Logger;
  store: PushStore;
  bus: Bus;
  jobs: JobQueue;
  clock: Clock;
  apns: ApnsSender;
  /** APNs sends in flight in this process, whichever jobs they belong to (PUSH_DELIVERY_CONCURRENCY). */
  apnsStreams: ConcurrencyLimit;
  /** APNs delivery attempts go to the log through it, group-committed. */
  deliveryLog: DeliveryLogWriter;
  /** Apps by name as last read, for deliveries (domain/apps.ts, appForDevice). */
  appCache: Map<string, { app: AppDoc | null; readAt: number }>;
  /** The VAPID key pair once read (domain/web-push.ts). */
  vapid?: VapidKeys;
  /** Tests only: the certificate authority of a local Web Push stand-in. */
  webPushCa?: string | Buffer;
}
