// What every domain function receives: configuration, the store's named queries, the bus, the job
// queue, the APNs sender and the clock.
import type { Bus, Clock, JobQueue, Logger } from '@murmur/platform';
import type { PushConfig } from '../config.js';
import type { AppDoc, PushStore } from '../store/index.js';
import type { ApnsSender } from './apns/sender.js';

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
}
