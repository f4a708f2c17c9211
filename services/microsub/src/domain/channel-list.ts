// `action=channels`: the user's channels in their order, with an integer `unread` on the tracked ones
// (counted at once, one feeds request each).
import type { z } from 'zod';
import type { BusHeaders } from '@murmur/bus';
import type { channelsSchema } from '../shapes.js';
import { channelsOf } from './channels.js';
import type { MicrosubContext } from './context.js';
import { unreadCount } from './read-state.js';

export async function listChannels(
  ctx: MicrosubContext,
  userId: number,
  headers: BusHeaders,
): Promise<z.input<typeof channelsSchema>> {
  const channels = await Promise.all(
    (await channelsOf(ctx, userId)).map(async (c) =>
      c.tracked && c.source
        ? {
            uid: c.uid,
            name: c.name,
            unread: await unreadCount(ctx, userId, { ...c, source: c.source }, headers),
          }
        : { uid: c.uid, name: c.name },
    ),
  );
  return { channels };
}
