// The retry policy of durable subscriptions, shared by both adapters: after each attempt the client decides
// ack, retry after a backoff, or dead-letter — the broker only carries out the verdict.
import { deadLetterSubject } from '@murmur/contracts';
import type { DeadLetter, SubscribeOptions } from './port.js';
import type { DeliveryOutcome } from './wire.js';

export const DEFAULT_MAX_DELIVER = 5;
export const DEFAULT_BACKOFF_MS: readonly number[] = [1000, 5000, 30000];
/** Events nobody has acknowledged are kept this long (NATS: the EVENTS stream's max age). */
export const EVENT_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** A second publish with the same event id within this window is dropped (NATS: the stream's duplicate window). */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

export interface RetryPolicy {
  durable: string;
  maxDeliver: number;
  backoffMs: readonly number[];
}

/** Fills in defaults and rejects options no broker could honour (a programming error, so it throws). */
export function retryPolicy(options: SubscribeOptions): RetryPolicy {
  deadLetterSubject(options.durable); // throws unless the name is one subject word (it also names NATS consumers)
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  if (!Number.isInteger(maxDeliver) || maxDeliver < 1)
    throw new Error(`maxDeliver must be a positive integer`);
  if (backoffMs.length === 0 || backoffMs.some((ms) => !Number.isFinite(ms) || ms < 0)) {
    throw new Error('backoffMs must list at least one delay of 0 ms or more');
  }
  return { durable: options.durable, maxDeliver, backoffMs };
}

/** Delay before redelivering after failed attempt `attempt` (1-based); the last value repeats. */
export function backoffDelay(backoffMs: readonly number[], attempt: number): number {
  return backoffMs[Math.min(attempt, backoffMs.length) - 1] ?? 0;
}

export type Verdict =
  { action: 'ack' } | { action: 'retry'; delayMs: number } | { action: 'dead'; letter: DeadLetter };

export function settle(
  outcome: DeliveryOutcome,
  deliveryCount: number,
  policy: RetryPolicy,
  subject: string,
): Verdict {
  if (outcome.ok) return { action: 'ack' };
  if (deliveryCount >= policy.maxDeliver) {
    const letter: DeadLetter = {
      durable: policy.durable,
      subject,
      envelope: outcome.envelope,
      deliveries: deliveryCount,
      error: outcome.error,
    };
    return { action: 'dead', letter };
  }
  return { action: 'retry', delayMs: backoffDelay(policy.backoffMs, deliveryCount) };
}
