// What every domain function receives: configuration, the store's named queries, the bus, the job
// queue, the APNs sender and the clock.
import type { Bus, Clock, JobQueue, Logger } from '@murmur/platform';
import type { PushConfig } from '../config.js';
import type { AppDoc, PushStore } from '../store/index.js';
import type { ApnsSender } from './apns/sender.js';
import type { VapidKeys } from './web-push.js';

export interface PushContext {
  config: PushConfig;
  logger: Logger;
  store: PushStore;
  bus: Bus;
  jobs: JobQueue;
  clock: Clock;
  apns: ApnsSender;
  /** Apps by name as last read, for deliveries (domain/apps.ts, appForDevice). */
  appCache: Map<string, { app: AppDoc | null; readAt: number }>;
  /** The VAPID key pair once read (domain/web-push.ts). */
  vapid?: VapidKeys;
  /** Tests only: the certificate authority of a local Web Push stand-in. */
  webPushCa?: string | Buffer;
}
