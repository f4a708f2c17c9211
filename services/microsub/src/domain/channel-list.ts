// `action=channels`: the four channels in order, with an integer `unread` on the tracked ones.
import type { z } from 'zod';
import type { BusHeaders } from '@murmur/bus';
import type { channelsSchema } from '../shapes.js';
import { CHANNELS } from './channels.js';
import type { MicrosubContext } from './context.js';
import { unreadCount } from './read-state.js';

export async function listChannels(
  ctx: MicrosubContext,
  userId: number,
  headers: BusHeaders,
): Promise<z.input<typeof channelsSchema>> {
  const channels = await Promise.all(
    CHANNELS.map(async (c) =>
      c.tracked && c.kind
        ? {
            uid: c.uid,
            name: c.name,
            unread: await unreadCount(ctx, userId, { ...c, kind: c.kind }, headers),
          }
        : { uid: c.uid, name: c.name },
    ),
  );
  return { channels };
}
