// `action=preview`: a user's 20 newest public posts as timeline items, without following them and
// without read state. Read from the user's own feeds timeline, keeping only their posts (bounded by
// MICROSUB_SCAN_LIMIT like every walk).
import type { z } from 'zod';
import type { BusHeaders } from '@murmur/bus';
import type { entrySchema } from '../shapes.js';
import type { MicrosubContext } from './context.js';
import { resolveUser } from './directory.js';
import type { FollowTarget } from './follows.js';
import { entryJson } from './item-json.js';
import { walk } from './source.js';

export const PREVIEW_ITEMS = 20;

export async function preview(
  ctx: MicrosubContext,
  target: FollowTarget,
  headers: BusHeaders,
): Promise<{ items: z.input<typeof entrySchema>[] }> {
  const user = await resolveUser(ctx, target, headers);
  const items: z.input<typeof entrySchema>[] = [];
  await walk(
    ctx,
    user._id,
    // Everyone the user follows and their own posts; only their own are kept.
    { kind: 'default', web: false },
    undefined,
    ({ item }) => {
      if (item.author.userId === user._id) items.push(entryJson(item));
      return items.length < PREVIEW_ITEMS;
    },
    { headers, first: 40 },
  );
  return { items };
}
