// What every domain function receives: configuration, the store's named queries, the bus, the clock
// and the follow limit.
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { Limits } from '@murmur/http';
import type { MicrosubConfig } from '../config.js';
import type { MicrosubStore } from '../store.js';

export interface MicrosubContext {
  config: MicrosubConfig;
  logger: Logger;
  store: MicrosubStore;
  bus: Bus;
  clock: Clock;
  /** `follow` and `preview` per user (MICROSUB_FOLLOWS_PER_MINUTE), enforced by routes/microsub.ts. */
  limits: Limits<typeof FOLLOW_LIMIT>;
}

/** The name of the per-user limit `follow` and `preview` share. */
export const FOLLOW_LIMIT = 'microsub-follow';
