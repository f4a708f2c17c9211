// What the domain functions work with. Built once per service instance (index.ts).
import type { Bus } from '@murmur/bus';
import type { Clock, Logger } from '@murmur/core';
import type { Limits } from '@murmur/http';
import type { JobQueue, Outbox } from '@murmur/jobs';
import type { BlobStore } from '@murmur/store';
import type { PublishingConfig } from '../config.js';
import type { PublishingStore } from '../store.js';

/** Store-backed limits shared by replicas: XML-RPC calls per user (XMLRPC_CALLS_PER_MINUTE). */
export type PublishingLimitName = 'xmlrpc-calls';

export interface PublishingContext {
  config: PublishingConfig;
  store: PublishingStore;
  blobs: BlobStore;
  bus: Bus;
  jobs: JobQueue;
  logger: Logger;
  limits: Limits<PublishingLimitName>;
  /** The process clock (tests move a TestClock): every date the domain writes comes from it. */
  clock: Clock;
  /** Events are recorded here with the state change and relayed to the bus until acknowledged. */
  outbox: Outbox;
}

/** Headers to carry on bus messages, so the request id travels with them (the platform's type). */
export type { BusHeaders } from '@murmur/bus';

/** The authenticated user of an XML-RPC call. */
export interface Caller {
  userId: number;
  username: string;
}
