// Where the webmention service meets other services: publishing's sites and posts (which URLs are
// ours, and whose; which links our posts make). It publishes its own events through the outbox
// (domain/events.ts), never from here.
import { federation, publishing } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { WebmentionContext } from './domain/context.js';
import { applyFederatedInteraction } from './domain/federated.js';
import { applyPostEvent } from './domain/posts.js';
import { applySiteEvent } from './domain/targets.js';

export const GROUPS = {
  siteCreated: 'webmention-site-created',
  siteUpdated: 'webmention-site-updated',
  postPublished: 'webmention-post-published',
  postUpdated: 'webmention-post-updated',
  postDeleted: 'webmention-post-deleted',
  interactionReceived: 'webmention-interaction-received',
  interactionRemoved: 'webmention-interaction-removed',
} as const;

export async function wireBus(ctx: WebmentionContext): Promise<Subscription[]> {
  const { bus } = ctx;
  return Promise.all([
    bus.subscribe(publishing.siteCreated, { durable: GROUPS.siteCreated }, (e) =>
      applySiteEvent(ctx, 'created', e),
    ),
    bus.subscribe(publishing.siteUpdated, { durable: GROUPS.siteUpdated }, (e) =>
      applySiteEvent(ctx, 'updated', e),
    ),
    bus.subscribe(publishing.postPublished, { durable: GROUPS.postPublished }, (e) =>
      applyPostEvent(ctx, 'published', e),
    ),
    bus.subscribe(publishing.postUpdated, { durable: GROUPS.postUpdated }, (e) =>
      applyPostEvent(ctx, 'updated', e),
    ),
    bus.subscribe(publishing.postDeleted, { durable: GROUPS.postDeleted }, (e) =>
      applyPostEvent(ctx, 'deleted', e),
    ),
    bus.subscribe(federation.interactionReceived, { durable: GROUPS.interactionReceived }, (e) =>
      applyFederatedInteraction(ctx, 'received', e),
    ),
    bus.subscribe(federation.interactionRemoved, { durable: GROUPS.interactionRemoved }, (e) =>
      applyFederatedInteraction(ctx, 'removed', e),
    ),
  ]);
}
