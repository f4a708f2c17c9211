// The shapes of the job queue (docs/adr/0003-jobs.md). A job lives in the owning service's `jobs` collection.
import type { Clock, Logger } from '@murmur/core';

export type JobStatus = 'queued' | 'running' | 'done' | 'dead';

export type Job<P = unknown> = {
  _id: string;
  type: string;
  payload: P;
  status: JobStatus;
  /** Not claimed before this time; after a failure, when the retry is due. */
  runAt: Date;
  /** Claims so far, this one included: 1 on the first run. */
  attempts: number;
  maxAttempts: number;
  /** While running: the claim is the worker's until then, renewed by its heartbeat. */
  leaseUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Dedupe key, held while the job is queued or running (released when it is done or dead). */
  key?: string;
  finishedAt?: Date;
  /** Done and dead jobs are deleted after this time (TTL index). */
  expiresAt?: Date;
};

export type JobHandler<P = unknown> = (payload: P, job: Job<P>) => Promise<void>;

export interface EnqueueOptions {
  /** Default: now. */
  runAt?: Date;
  /** Default 5. */
  maxAttempts?: number;
  /** While a job with this key is queued or running, enqueue returns that job instead of adding one. */
  key?: string;
}

export interface RegisterOptions {
  /** Jobs of this type running at once in this queue instance. Default 1. */
  concurrency?: number;
  /** How long a claim lasts without a heartbeat; the heartbeat renews it every third of this. Default 60 s. */
  leaseMs?: number;
}

export interface JobQueueOptions {
  service: string;
  logger: Logger;
  /** How often to look for due jobs (enqueue in this process wakes the queue at once). Default 500 ms. */
  pollIntervalMs?: number;
  /**
   * The longest wait between looks while they find nothing (idle-poll.ts): each empty look doubles the
   * wait up to this, work or a wake brings it back to pollIntervalMs, and a delayed job or retry this queue
   * wrote is looked for when it falls due. Default: four poll intervals with the default poll interval
   * on the embedded store (nothing outside the process writes it); otherwise one — on MongoDB another
   * replica may have enqueued, and a poll interval set by hand is kept as set.
   */
  idlePollIntervalMs?: number;
  /** Retry n waits about base·2ⁿ⁻¹ (between half and all of it, at random). Default 5 s. */
  backoffBaseMs?: number;
  /** Upper bound of one retry delay. Default 1 hour. */
  backoffMaxMs?: number;
  /** How long done jobs are kept. Default 7 days. */
  doneRetentionMs?: number;
  /** How long dead jobs are kept for inspection. Default 30 days. */
  deadRetentionMs?: number;
  /** How long stop() waits for running handlers. Default 30 s. */
  stopTimeoutMs?: number;
  /** What `now` is for run times, leases and retention (ServiceContext.clock). Default systemClock. */
  clock?: Clock;
}
