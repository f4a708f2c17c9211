// A durable subscriber to publishing's post events, as another service would have one: it records every
// delivery so tests can say "exactly one event per change".
import { randomUUID } from 'node:crypto';
import { publishing, type EventEnvelope } from '@murmur/contracts';
import type { Bus, Subscription } from '@murmur/bus';

export interface RecordedEvent {
  verb: 'published' | 'updated' | 'deleted';
  envelope: EventEnvelope<publishing.PublicPost>;
}

export interface PostEventLog {
  events: RecordedEvent[];
  of(postId: number): RecordedEvent[];
  stop(): Promise<void>;
}

export async function recordPostEvents(
  bus: Bus,
  group = `test-${randomUUID().slice(0, 8)}`,
): Promise<PostEventLog> {
  const events: RecordedEvent[] = [];
  const defs = [
    ['published', publishing.postPublished],
    ['updated', publishing.postUpdated],
    ['deleted', publishing.postDeleted],
  ] as const;
  const subscriptions: Subscription[] = [];
  for (const [verb, def] of defs) {
    subscriptions.push(
      await bus.subscribe(def, { durable: `${group}-${verb}` }, async (envelope) => {
        events.push({ verb, envelope });
      }),
    );
  }
  return {
    events,
    of: (postId) => events.filter((e) => e.envelope.data.id === postId),
    async stop() {
      for (const s of subscriptions) await s.unsubscribe();
    },
  };
}

/** Lets in-flight deliveries arrive before a test says "no (more) events". */
export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));
