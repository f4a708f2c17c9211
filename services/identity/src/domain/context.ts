// What the domain functions work with. Built once per service instance (index.ts).
import type { Bus, JobQueue, Logger } from '@murmur/platform';
import type { IdentityConfig } from '../config.js';
import type { IdentityStore } from '../store.js';
import type { AppleKeys } from './apple-keys.js';
import type { AccountLimits } from './limits.js';

export interface IdentityContext {
  config: IdentityConfig;
  store: IdentityStore;
  bus: Bus;
  jobs: JobQueue;
  logger: Logger;
  limits: AccountLimits;
  appleKeys: AppleKeys;
  /** The clock every lifetime (sign-in tokens, sessions, Apple `exp`, rate windows) is measured against. */
  now: () => Date;
}

/** Headers to carry on bus messages, so the request id travels with them. */
export type BusHeaders = Record<string, string>;
