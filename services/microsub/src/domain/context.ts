// What every domain function receives: configuration, the store's named queries, the bus and the clock.
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { MicrosubConfig } from '../config.js';
import type { MicrosubStore } from '../store.js';

export interface MicrosubContext {
  config: MicrosubConfig;
  logger: Logger;
  store: MicrosubStore;
  bus: Bus;
  clock: Clock;
}
