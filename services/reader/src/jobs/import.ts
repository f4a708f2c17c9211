// The OPML import job: subscribes the user to each pending item (a few at a time), records each
// item's outcome as it goes, and tags feeds with their OPML folder. Safe to run again after a crash:
// finished items are skipped, subscribing twice finds the existing subscription.
import { AppError } from '@murmur/core';
import { handleJob } from '@murmur/jobs';
import type { ReaderContext } from '../domain/context.js';
import { importOpmlJob, type ImportPayload } from '../domain/jobs.js';
import { normaliseFeedInput, subscribe } from '../domain/subscriptions.js';
import { tagFeed } from '../domain/taggings.js';
import type { ImportItemDoc } from '../store/index.js';

// A failure leaves the remaining items `pending` (finished ones keep their status); the retry
// picks up where it stopped. After the last attempt the import stays incomplete.
export const importOpmlJobDefinition = handleJob(importOpmlJob, (ctx: ReaderContext, payload) =>
  runImport(ctx, payload),
);

const PARALLEL = 4;

async function importItem(
  ctx: ReaderContext,
  userId: number,
  item: ImportItemDoc,
): Promise<'complete' | 'failed'> {
  let url: string;
  try {
    url = normaliseFeedInput(item.feed_url, 'feed_url');
  } catch {
    return 'failed';
  }
  let outcome;
  try {
    outcome = await subscribe(ctx, userId, url);
    // An OPML entry that leads to several feeds: the first is what the author listed first.
    if (outcome.kind === 'choices') outcome = await subscribe(ctx, userId, outcome.choices[0]!.feed_url);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return 'failed';
    throw err;
  }
  if (outcome.kind !== 'created' && outcome.kind !== 'existing') return 'failed';
  for (const tag of item.tags) await tagFeed(ctx, userId, outcome.subscription.feedId, tag.slice(0, 255));
  return 'complete';
}

export async function runImport(ctx: ReaderContext, payload: ImportPayload): Promise<void> {
  const doc = await ctx.store.importById(payload.importId);
  if (!doc || doc.complete) return;
  const pending = doc.items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => item.status === 'pending');
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const { item, index } = pending[next++]!;
      const status = await importItem(ctx, doc.userId, item);
      await ctx.store.setImportItemStatus(doc._id, index, status);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  await ctx.store.markImportComplete(doc._id);
  await ctx.states.touch(doc.userId);
}
