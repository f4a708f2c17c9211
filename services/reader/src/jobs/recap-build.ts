// The recap build job: renders the recap a user asked for (POST /feeds/recap) and caches it, so the
// client's next poll gets it.
import { handleJob } from '@murmur/jobs';
import type { ReaderContext } from '../domain/context.js';
import { loadEntries } from '../domain/entries.js';
import { recapBuildJob, type RecapBuildPayload } from '../domain/jobs.js';
import { renderRecap } from '../domain/recap.js';
import { prepareRecap, RECAP_TTL_MS } from '../domain/recaps.js';

// A failure leaves the recap `building`: the client keeps getting 202 until it gives up, and the
// next POST after two minutes queues the build again.
export const recapBuildJobDefinition = handleJob(recapBuildJob, (ctx: ReaderContext, payload) =>
  buildRecap(ctx, payload),
);

export async function buildRecap(ctx: ReaderContext, payload: RecapBuildPayload): Promise<void> {
  const entries = await loadEntries(ctx.store, payload.ids);
  const { groups, summaries } = await prepareRecap(ctx, payload.userId, entries);
  const now = ctx.clock.nowDate();
  await ctx.store.finishRecap(payload.key, renderRecap(groups, summaries), now, {
    userId: payload.userId,
    ids: payload.ids,
    createdAt: now,
    expiresAt: new Date(now.getTime() + RECAP_TTL_MS),
  });
}
