// What the domain functions work with. Built once per service instance (index.ts).
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { JobQueue, Outbox } from '@murmur/jobs';
import type { IdentityConfig } from '../config.js';
import type { Mailer } from '../mail/mailer.js';
import type { IdentityStore } from '../store/index.js';
import type { AppleKeys } from './apple-keys.js';
import type { ClientInfoLoader } from './client-info.js';
import type { IdentityLimits } from './limits.js';

export interface IdentityContext {
  config: IdentityConfig;
  store: IdentityStore;
  bus: Bus;
  jobs: JobQueue;
  logger: Logger;
  /** Sign-in mail and the mail other services relay through identity. */
  mailer: Mailer;
  /** Where every event identity announces is recorded before the relay publishes it (domain/events.ts). */
  outbox: Outbox;
  limits: IdentityLimits;
  appleKeys: AppleKeys;
  /** What IndieAuth clients publish at their client_id (cached). */
  clientInfo: ClientInfoLoader;
  /** Key of the CSRF tokens of the browser forms, shared by every replica through the store. */
  csrfSecret: string;
  /** Whether the reader's recaps use the operator's AI summariser (`is_using_ai`). */
  usingAi: () => Promise<boolean>;
  /**
   * The process clock (the platform's ServiceContext.clock): every lifetime (sign-in tokens, sessions,
   * codes, Apple `exp`) and rate window is measured against it, so a test's TestClock moves them all.
   */
  clock: Clock;
}
