// GET and POST /microsub (docs/api/microsub.md): one path, the `action` parameter picks the operation.
// Authentication (Bearer or `access_token`) is the platform's; the scope each action needs is checked
// here because the action is only known once the parameters are read: `read` for every GET and for
// POST timeline/search/preview, `follow` for POST follow/unfollow (`create` grants both), `channels`
// for POST channels (create, rename, order, delete).
import type { FastifyInstance } from 'fastify';
import { type BusHeaders } from '@murmur/bus';
import { federation } from '@murmur/contracts';
import { badRequest } from '@murmur/core';
import { busHeaders, defineRoute, requireScope, type AuthInfo, type ParamRecord } from '@murmur/http';
import {
  createChannel,
  deleteChannel,
  MAX_CHANNELS,
  orderChannels,
  renameChannel,
} from '../domain/channel-admin.js';
import { listChannels } from '../domain/channel-list.js';
import { channelOr404, type Channel } from '../domain/channels.js';
import { FOLLOW_LIMIT, type MicrosubContext } from '../domain/context.js';
import { searchUsers } from '../domain/directory.js';
import { preview } from '../domain/preview.js';
import { follow, following, unfollow, type FollowTarget } from '../domain/follows.js';
import {
  markRead,
  markReadThrough,
  markUnread,
  removeEntries,
  startReadState,
} from '../domain/read-state.js';
import { timelinePage } from '../domain/timeline.js';
import { entriesOf, isReadOf, limitOf, listOf, text } from './params.js';
import { microsubResponseSchema } from '../shapes.js';

/** What the routes answer cross-origin (app.ts sends them; the routes declare `crossOrigin` with them). */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Authorization, Content-Type, Cache-Control, Last-Event-ID',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
} as const;

const NOT_SUPPORTED = new Set(['mute', 'unmute', 'block', 'unblock']);

/** Counts a follow or preview of the user (MICROSUB_FOLLOWS_PER_MINUTE); over it → 429 with Retry-After. */
const countFollow = (ctx: MicrosubContext, auth: AuthInfo) =>
  ctx.limits.enforce(FOLLOW_LIMIT, `user:${auth.userId}`);

function actionOf(params: ParamRecord): string {
  const action = text(params, 'action', 64);
  if (action === undefined || action === '') throw badRequest('action: is required', 'action');
  return action;
}

function unknownAction(action: string) {
  if (NOT_SUPPORTED.has(action)) return badRequest(`action: ${action} is not supported`, 'action');
  return badRequest(`action: unknown action "${action}"`, 'action');
}

/** The user's channel named by `channel` (default: `default`), else 404. */
function channelParam(ctx: MicrosubContext, auth: AuthInfo, params: ParamRecord): Promise<Channel> {
  return channelOr404(ctx, auth.userId, text(params, 'channel', 64));
}

/** The user's channel named by `channel`, undefined when the parameter is absent. */
async function optionalChannel(
  ctx: MicrosubContext,
  auth: AuthInfo,
  params: ParamRecord,
): Promise<Channel | undefined> {
  const uid = text(params, 'channel', 64);
  return uid === undefined ? undefined : channelOr404(ctx, auth.userId, uid);
}

/**
 * A fediverse handle as people copy it (`@name@host`, `name@host`, `acct:name@host`): followed as
 * the feeds follow API follows it, by that name (feeds asks the federation service).
 */
function fediverseHandle(value: string): string | undefined {
  const handle = value.replace(/^acct:/i, '');
  return federation.isHandle(handle) && handle.length <= 64 ? handle : undefined;
}

function followTarget(params: ParamRecord): FollowTarget {
  const username = text(params, 'username', 64)?.trim();
  if (username) return { username: fediverseHandle(username) ?? username };
  const url = text(params, 'url', 2048)?.trim();
  if (!url) throw badRequest('url: url or username is required', 'url');
  const handle = fediverseHandle(url);
  if (handle) return { username: handle };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('url: must be an absolute http(s) URL', 'url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw badRequest('url: must be an absolute http(s) URL', 'url');
  }
  return { url: parsed.href };
}

function search(ctx: MicrosubContext, params: ParamRecord, headers: BusHeaders) {
  const query = text(params, 'query', 200)?.trim();
  if (!query) throw badRequest('query: is required', 'query');
  return searchUsers(ctx, query, headers);
}

async function timeline(ctx: MicrosubContext, auth: AuthInfo, params: ParamRecord, headers: BusHeaders) {
  const before = text(params, 'before', 300);
  const after = text(params, 'after', 300);
  const isRead = isReadOf(params);
  return timelinePage(
    ctx,
    auth.userId,
    await channelParam(ctx, auth, params),
    {
      limit: limitOf(params),
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
      ...(isRead === undefined ? {} : { isRead }),
    },
    headers,
  );
}

async function get(ctx: MicrosubContext, auth: AuthInfo, params: ParamRecord, headers: BusHeaders) {
  const action = actionOf(params);
  requireScope(auth, 'read');
  switch (action) {
    case 'channels':
      return listChannels(ctx, auth.userId, headers);
    case 'timeline':
      return timeline(ctx, auth, params, headers);
    case 'follow':
      return following(ctx, auth.userId, await optionalChannel(ctx, auth, params), headers);
    case 'search':
      return search(ctx, params, headers);
    case 'preview': {
      const target = followTarget(params);
      await countFollow(ctx, auth);
      return preview(ctx, target, headers);
    }
    default:
      throw unknownAction(action);
  }
}

async function post(ctx: MicrosubContext, auth: AuthInfo, params: ParamRecord, headers: BusHeaders) {
  const action = actionOf(params);
  switch (action) {
    case 'channels':
      requireScope(auth, 'channels');
      return channelsWrite(ctx, auth, params, headers);
    case 'timeline':
      requireScope(auth, 'read');
      await timelineWrite(ctx, auth, params, headers);
      return {};
    case 'search':
      requireScope(auth, 'read');
      return search(ctx, params, headers);
    case 'preview': {
      requireScope(auth, 'read');
      const target = followTarget(params);
      await countFollow(ctx, auth);
      return preview(ctx, target, headers);
    }
    case 'follow': {
      requireScope(auth, 'follow');
      const channel = await channelParam(ctx, auth, params);
      const target = followTarget(params);
      await countFollow(ctx, auth);
      await follow(ctx, auth.userId, target, channel, headers);
      return {};
    }
    case 'unfollow': {
      requireScope(auth, 'follow');
      // A follow is ended whichever channel it is in; a channel named must still be the user's.
      await optionalChannel(ctx, auth, params);
      await unfollow(ctx, auth.userId, followTarget(params), headers);
      return {};
    }
    default:
      requireScope(auth, 'read');
      throw unknownAction(action);
  }
}

/**
 * POST `action=channels`: `method=delete` with `channel`, `method=order` with `channels[]`, `channel`
 * with `name` renames, `name` alone creates (the Microsub spec's channel actions).
 */
async function channelsWrite(ctx: MicrosubContext, auth: AuthInfo, params: ParamRecord, headers: BusHeaders) {
  const method = text(params, 'method', 64);
  const uid = text(params, 'channel', 64);
  if (method === 'delete') {
    if (!uid) throw badRequest('channel: is required', 'channel');
    return deleteChannel(ctx, auth.userId, uid, headers);
  }
  if (method === 'order')
    return orderChannels(ctx, auth.userId, listOf(params, 'channels', MAX_CHANNELS, 64));
  if (method !== undefined && method !== '') throw badRequest(`method: unknown method "${method}"`, 'method');
  const name = text(params, 'name', 1000);
  if (uid) return renameChannel(ctx, auth.userId, uid, name);
  return createChannel(ctx, auth.userId, name);
}

async function timelineWrite(
  ctx: MicrosubContext,
  auth: AuthInfo,
  params: ParamRecord,
  headers: BusHeaders,
): Promise<void> {
  const method = text(params, 'method', 64);
  if (method === undefined || method === '') throw badRequest('method: is required', 'method');
  if (method !== 'mark_read' && method !== 'mark_unread' && method !== 'remove') {
    throw badRequest(`method: unknown method "${method}"`, 'method');
  }
  const channel = await channelParam(ctx, auth, params);
  const entries = entriesOf(params);
  const lastRead = method === 'mark_read' ? text(params, 'last_read_entry', 64) : undefined;
  if (entries.length === 0 && !lastRead) {
    throw badRequest(
      method === 'mark_read' ? 'entry: entry or last_read_entry is required' : 'entry: is required',
      'entry',
    );
  }
  if (method === 'remove') return removeEntries(ctx, auth.userId, channel, entries);
  // Untracked channels keep no read state: marking succeeds and changes nothing.
  if (!channel.tracked || !channel.source) return;
  const tracked = { ...channel, source: channel.source };
  if (method === 'mark_unread') return markUnread(ctx, auth.userId, tracked, entries, headers);
  if (entries.length > 0) await markRead(ctx, auth.userId, tracked, entries);
  if (lastRead) await markReadThrough(ctx, auth.userId, tracked, lastRead, headers);
}

export function registerMicrosubRoutes(scope: FastifyInstance, ctx: MicrosubContext): void {
  const common = {
    url: '/microsub',
    crossOrigin: { allowHeaders: CORS_HEADERS['access-control-allow-headers'] },
    auth: 'required',
    tokenParam: true,
    rateLimit: { key: 'user', max: ctx.config.MICROSUB_REQUESTS_PER_MINUTE, windowMs: 60_000 },
    response: { 200: microsubResponseSchema },
  } as const;

  defineRoute(scope, {
    ...common,
    method: 'GET',
    handler: async ({ auth, input, request }) => {
      await startReadState(ctx, auth.userId);
      return get(ctx, auth, input, busHeaders(request));
    },
  });

  defineRoute(scope, {
    ...common,
    method: 'POST',
    handler: async ({ auth, input, request }) => {
      await startReadState(ctx, auth.userId);
      return post(ctx, auth, input, busHeaders(request));
    },
  });
}
