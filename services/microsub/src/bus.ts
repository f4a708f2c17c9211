// Where the microsub service meets other services. It answers no requests and consumes no events:
// timelines and follows are asked of the feeds service (feeds.timeline.get, feeds.follow.create,
// feeds.follow.delete, feeds.following.list) from domain/source.ts and domain/follows.ts, per request.
import type { Subscription } from '@murmur/platform';
import type { MicrosubContext } from './domain/context.js';

export const GROUPS = {} as const;

export async function wireBus(_ctx: MicrosubContext): Promise<Subscription[]> {
  return [];
}
