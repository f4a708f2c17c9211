// Where the websub service meets other services: publishing's post events and webmention's mention
// events (which topics changed).
// It announces nothing on the bus; its answers go to subscribers over HTTP.
import { publishing, webmention } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { WebsubContext } from './domain/context.js';
import { applyMentionEvent, applyPostEvent } from './domain/events.js';

export const GROUPS = {
  postPublished: 'websub-post-published',
  postUpdated: 'websub-post-updated',
  postDeleted: 'websub-post-deleted',
  mentionVerified: 'websub-mention-verified',
  mentionDeleted: 'websub-mention-deleted',
} as const;

export async function wireBus(ctx: WebsubContext): Promise<Subscription[]> {
  const { bus } = ctx;
  return Promise.all([
    bus.subscribe(publishing.postPublished, { durable: GROUPS.postPublished }, (e) =>
      applyPostEvent(ctx, 'published', e.data),
    ),
    bus.subscribe(publishing.postUpdated, { durable: GROUPS.postUpdated }, (e) =>
      applyPostEvent(ctx, 'updated', e.data),
    ),
    bus.subscribe(publishing.postDeleted, { durable: GROUPS.postDeleted }, (e) =>
      applyPostEvent(ctx, 'deleted', e.data),
    ),
    bus.subscribe(webmention.mentionVerified, { durable: GROUPS.mentionVerified }, (e) =>
      applyMentionEvent(ctx, e.data),
    ),
    bus.subscribe(webmention.mentionDeleted, { durable: GROUPS.mentionDeleted }, (e) =>
      applyMentionEvent(ctx, e.data),
    ),
  ]);
}
