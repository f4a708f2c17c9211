// The jobs the reader's domain queues, declared without their handlers (docs/service-template.md,
// `jobs/`), with the helpers that queue them under their dedupe keys: the domain imports this file to
// enqueue them, and each `jobs/<job>.ts` attaches the handler.
import { z } from 'zod';
import { declareJob, enqueueJob } from '@murmur/jobs';
import type { ReaderContext } from './context.js';

export const refreshFeedJob = declareJob({
  name: 'reader.feed.refresh',
  payload: z.object({ feedId: z.number().int() }),
  // Concurrency is READER_POLL_CONCURRENCY (jobs/index.ts).
  options: { leaseMs: 120_000 },
});

/** Queues a refresh of the feed unless one is queued or running already. */
export async function queueFeedRefresh(ctx: ReaderContext, feedId: number): Promise<void> {
  await enqueueJob(ctx.jobs, refreshFeedJob, { feedId }, { key: `feed:${feedId}`, maxAttempts: 3 });
}

const iconPayload = z.object({ host: z.string(), siteUrl: z.string() });
export type IconPayload = z.output<typeof iconPayload>;

export const refreshIconJob = declareJob({
  name: 'reader.icon.refresh',
  payload: iconPayload,
  options: { concurrency: 2 },
});

/** Queues an icon lookup for a site unless one is queued or running already. */
export async function queueIconRefresh(ctx: ReaderContext, payload: IconPayload): Promise<void> {
  await enqueueJob(ctx.jobs, refreshIconJob, payload, { key: `icon:${payload.host}`, maxAttempts: 2 });
}

const importPayload = z.object({ importId: z.number().int() });
export type ImportPayload = z.output<typeof importPayload>;

export const importOpmlJob = declareJob({
  name: 'reader.opml.import',
  payload: importPayload,
  options: { leaseMs: 120_000 },
});

export async function queueImport(ctx: ReaderContext, importId: number): Promise<void> {
  await enqueueJob(ctx.jobs, importOpmlJob, { importId }, { key: `import:${importId}` });
}

const recapBuildPayload = z.object({
  userId: z.number().int(),
  key: z.string(),
  ids: z.array(z.number().int()),
});
export type RecapBuildPayload = z.output<typeof recapBuildPayload>;

export const recapBuildJob = declareJob({
  name: 'reader.recap.build',
  payload: recapBuildPayload,
  options: { concurrency: 2, leaseMs: 90_000 },
});

const webSubSubscribePayload = z.object({ feedId: z.number().int(), hub: z.string(), topic: z.string() });
export type WebSubSubscribePayload = z.output<typeof webSubSubscribePayload>;

export const webSubSubscribeJob = declareJob({
  name: 'reader.websub.subscribe',
  payload: webSubSubscribePayload,
  options: { concurrency: 4, leaseMs: 60_000 },
});

/** Queues the feed's WebSub (re)subscription unless one is queued or running already. */
export async function queueWebSubSubscribe(
  ctx: ReaderContext,
  payload: WebSubSubscribePayload,
): Promise<void> {
  await enqueueJob(ctx.jobs, webSubSubscribeJob, payload, {
    key: `websub:${payload.feedId}`,
    maxAttempts: 3,
  });
}

export const webSubUnsubscribeJob = declareJob({
  name: 'reader.websub.unsubscribe',
  payload: z.object({ token: z.string() }),
  options: { concurrency: 4, leaseMs: 60_000 },
});

/** Queues the unsubscribe request of one ending WebSub record. */
export async function queueWebSubUnsubscribe(ctx: ReaderContext, token: string): Promise<void> {
  await enqueueJob(ctx.jobs, webSubUnsubscribeJob, { token }, { key: `websub-end:${token}`, maxAttempts: 3 });
}
