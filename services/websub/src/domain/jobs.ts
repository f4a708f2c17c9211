// The jobs the websub service's domain queues, declared without their handlers
// (docs/service-template.md, `jobs/`): the domain imports this file to enqueue them, and each
// `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob } from '@murmur/jobs';

const url = z.string().min(1).max(2048);

/** Asks a callback to confirm a subscription or unsubscription (the challenge), then records it. */
export const verifyIntentJob = declareJob({
  name: 'websub.intent.verify',
  payload: z.object({
    mode: z.enum(['subscribe', 'unsubscribe']),
    topic: url,
    callback: url,
    leaseSeconds: z.number().int().positive(),
    secret: z.string().max(400).optional(),
  }),
  options: { concurrency: 8, leaseMs: 60_000 },
});

/**
 * Reads a topic's current document and, when it is new, queues its delivery to every live subscriber,
 * one job per callback host. `expectChange`: the event that queued it changes this topic, so an
 * unchanged document means the serving service has not applied it yet — looked at again (`round`).
 */
export const refreshTopicJob = declareJob({
  name: 'websub.topic.refresh',
  payload: z.object({ topic: url, expectChange: z.boolean(), round: z.number().int().min(0) }),
  options: { concurrency: 4, leaseMs: 120_000 },
});

/** Delivers one content to the subscriptions of one callback host that do not have it yet. */
export const deliverContentJob = declareJob({
  name: 'websub.content.deliver',
  payload: z.object({
    contentId: z.string().min(1).max(100),
    host: z.string().min(1).max(300),
    subscriptions: z.array(z.string().max(100)).min(1).max(100_000),
  }),
  options: { concurrency: 32, leaseMs: 300_000 },
});
