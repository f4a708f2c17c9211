// Changing a user's channels (docs/api/microsub.md "Channels"), the Microsub spec's `action=channels`
// writes: create from a name, rename, order, delete. Every change is a compare-and-set on the user's
// list, applied again to the newest list when another request changed it first, so two clients
// changing channels at once lose neither change.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { feeds } from '@murmur/contracts';
import { type BusHeaders } from '@murmur/bus';
import { badRequest, internalError, isAppError } from '@murmur/core';
import type { channelSchema, channelsSchema } from '../shapes.js';
import type { ChannelEntry } from '../store.js';
import {
  BUILT_IN_ENTRIES,
  channelOf,
  DEFAULT_UID,
  isBuiltIn,
  noSuchChannel,
  NOTIFICATIONS_UID,
} from './channels.js';
import type { MicrosubContext } from './context.js';
import { channelState } from './read-state.js';

/** Channels one user may have, the four built-in ones included (docs/api/microsub.md "Limits"). */
export const MAX_CHANNELS = 100;
/** Characters of a channel name. */
export const MAX_NAME = 100;

/** C0 control characters and DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** A channel name as given: trimmed, 1 to MAX_NAME characters, no control characters. */
function nameOf(raw: string | undefined): string {
  const name = raw?.trim() ?? '';
  if (name === '') throw badRequest('name: is required', 'name');
  if (name.length > MAX_NAME) throw badRequest(`name: at most ${MAX_NAME} characters`, 'name');
  if (hasControl(name)) throw badRequest('name: must not contain control characters', 'name');
  return name;
}

function checkUnique(channels: readonly ChannelEntry[], name: string, except?: string): void {
  const key = name.toLowerCase();
  const taken = channels.find((c) => c.uid !== except && c.name.toLowerCase() === key);
  if (taken) throw badRequest(`name: a channel named "${taken.name}" already exists`, 'name');
}

function newUid(channels: readonly ChannelEntry[]): string {
  for (;;) {
    const uid = randomBytes(8).toString('hex');
    if (!isBuiltIn(uid) && !channels.some((c) => c.uid === uid)) return uid;
  }
}

const WRITE_ATTEMPTS = 8;

/** Applies `edit` to the user's newest list until the write sticks; `edit` may throw to refuse. */
async function change<T>(
  ctx: MicrosubContext,
  userId: number,
  edit: (channels: readonly ChannelEntry[]) => { channels: ChannelEntry[]; result: T },
): Promise<T> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const doc = await ctx.store.channelList(userId);
    const { channels, result } = edit(doc?.channels ?? BUILT_IN_ENTRIES);
    if (await ctx.store.replaceChannelList(userId, doc?.rev ?? null, channels)) return result;
  }
  throw internalError(new Error(`channel list of ${userId} kept changing under ${WRITE_ATTEMPTS} writes`));
}

function indexOr404(channels: readonly ChannelEntry[], uid: string): number {
  const at = channels.findIndex((c) => c.uid === uid);
  if (at < 0) throw noSuchChannel(uid);
  return at;
}

/** `name` alone: a new channel, last in the list, its read marker now. */
export async function createChannel(
  ctx: MicrosubContext,
  userId: number,
  rawName: string | undefined,
): Promise<z.input<typeof channelSchema>> {
  const name = nameOf(rawName);
  const created = await change(ctx, userId, (channels) => {
    if (channels.length >= MAX_CHANNELS) {
      throw badRequest(
        `name: at most ${MAX_CHANNELS} channels (the four built-in ones included); delete one first`,
        'name',
      );
    }
    checkUnique(channels, name);
    const entry = { uid: newUid(channels), name };
    return { channels: [...channels, entry], result: entry };
  });
  // What its follows publish from now on is unread; nothing before is.
  await channelState(ctx, userId, channelOf(created));
  return created;
}

/** `channel` and `name`: renamed, in place. `notifications` keeps its name. */
export async function renameChannel(
  ctx: MicrosubContext,
  userId: number,
  uid: string,
  rawName: string | undefined,
): Promise<z.input<typeof channelSchema>> {
  const name = nameOf(rawName);
  if (uid === NOTIFICATIONS_UID) throw badRequest('channel: notifications keeps its name', 'channel');
  return change(ctx, userId, (channels) => {
    const at = indexOr404(channels, uid);
    checkUnique(channels, name, uid);
    const next = [...channels];
    next[at] = { uid, name };
    return { channels: next, result: { uid, name } };
  });
}

/** Ends the follows of a channel being deleted (none when feeds has not heard of the user yet). */
async function unfollowChannel(
  ctx: MicrosubContext,
  userId: number,
  uid: string,
  headers: BusHeaders,
): Promise<void> {
  try {
    await ctx.bus.request(feeds.channelUnfollow, { userId, channel: uid }, { headers });
  } catch (err) {
    if (!(isAppError(err) && err.status === 404)) throw err;
  }
}

/**
 * `method=delete`: the channel leaves the list, with its read state. A channel the user created takes
 * its follows with it (they are unfollowed, as the channel's sources are in other Microsub servers);
 * `bookmarks` and `discover` hold none. `notifications` and `default` (which holds every follow made
 * outside Microsub) cannot be deleted.
 */
export async function deleteChannel(
  ctx: MicrosubContext,
  userId: number,
  uid: string,
  headers: BusHeaders,
): Promise<{ deleted: true }> {
  if (uid === NOTIFICATIONS_UID) throw badRequest('channel: notifications cannot be deleted', 'channel');
  if (uid === DEFAULT_UID) {
    throw badRequest(
      'channel: default holds every follow made outside Microsub and cannot be deleted; rename it instead',
      'channel',
    );
  }
  const doc = await ctx.store.channelList(userId);
  indexOr404(doc?.channels ?? BUILT_IN_ENTRIES, uid);
  const custom = !isBuiltIn(uid);
  // Unfollowed first: a failure leaves the channel listed, and deleting it again finishes the work.
  if (custom) await unfollowChannel(ctx, userId, uid, headers);
  await change(ctx, userId, (channels) => {
    const at = indexOr404(channels, uid);
    return { channels: [...channels.slice(0, at), ...channels.slice(at + 1)], result: undefined };
  });
  // A follow made into it while it was being deleted.
  if (custom) await unfollowChannel(ctx, userId, uid, headers);
  await ctx.store.deleteChannelState(userId, uid);
  return { deleted: true };
}

/**
 * `method=order` with `channels[]`: the listed channels take the places they hold now, in the order
 * given; channels not listed stay where they are. `notifications` may be listed only first.
 */
export async function orderChannels(
  ctx: MicrosubContext,
  userId: number,
  uids: readonly string[],
): Promise<z.input<typeof channelsSchema>> {
  if (uids.length === 0) throw badRequest('channels: list the channel uids in the order wanted', 'channels');
  const seen = new Set<string>();
  for (const uid of uids) {
    if (seen.has(uid)) throw badRequest(`channels: "${uid}" is listed twice`, 'channels');
    seen.add(uid);
  }
  if (uids.includes(NOTIFICATIONS_UID) && uids[0] !== NOTIFICATIONS_UID) {
    throw badRequest('channels: notifications stays first', 'channels');
  }
  const channels = await change(ctx, userId, (current) => {
    const byUid = new Map(current.map((c) => [c.uid, c]));
    const unknown = uids.find((uid) => !byUid.has(uid));
    if (unknown !== undefined) throw badRequest(`channels: no channel "${unknown}"`, 'channels');
    const slots = current.flatMap((c, i) => (seen.has(c.uid) ? [i] : []));
    const next = [...current];
    uids.forEach((uid, i) => {
      next[slots[i]!] = byUid.get(uid)!;
    });
    return { channels: next, result: next };
  });
  return { channels: channels.map(({ uid, name }) => ({ uid, name })) };
}
