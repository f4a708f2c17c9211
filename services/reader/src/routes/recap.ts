// POST /feeds/recap (202 while a job builds it, then 200 with the cached HTML fragment) and the weekly
// recap email settings. `{"error"}` error shape.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { badRequest, DuplicateKeyError, HTML_PAGE_HEADERS } from '@murmur/platform';
import { JOB, type ReaderContext } from '../domain/context.js';
import { visibleEntries } from '../domain/entries.js';
import { PREPARING_HTML } from '../domain/recap.js';
import { RECAP_TTL_MS } from '../jobs/recap.js';
import { DAYS, type Day } from '../store.js';
import { idList } from './params.js';
import { credentialKey, readerRoute, type RouteScopes } from './route.js';
import { recapEmailSchema } from './schemas.js';

const MAX_IDS = 1000;
/** A build that has not finished in this long is queued again (its worker may have died). */
const STALE_BUILD_MS = 2 * 60_000;

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(HTML_PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
}

const dayParam = () =>
  z.unknown().transform((raw, ctx): Day | '' => {
    const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    const day = typeof v === 'string' ? v.trim().toLowerCase() : null;
    if (day === '' || (day !== null && (DAYS as readonly string[]).includes(day))) return day as Day | '';
    ctx.addIssue({ code: 'custom', message: 'must be a day of the week (monday … sunday) or "" for off' });
    return z.NEVER;
  });

export function registerRecapRoutes(scope: FastifyInstance, scopes: RouteScopes, ctx: ReaderContext): void {
  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/recap',
    scope: 'read',
    arrayBody: 'ids',
    input: z.object({
      ids: idList({
        max: MAX_IDS,
        tooMany: `must have at most ${MAX_IDS} entry ids`,
        notInteger: 'must be an array of integer entry ids',
      }),
      reset: z.unknown().optional(),
    }),
    rateLimit: {
      max: ctx.config.READER_RECAP_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: credentialKey,
    },
    handler: async ({ input, auth, reply }) => {
      const view = await ctx.views.get(auth.userId);
      const visible = (await visibleEntries(ctx.store, view, input.ids))
        .map((e) => e._id)
        .sort((a, b) => a - b);
      if (visible.length === 0) throw badRequest('ids: none of these entries can be recapped', 'ids');
      const key = `${auth.userId}:${createHash('sha256').update(visible.join(',')).digest('hex')}`;
      const reset =
        input.reset === '1' || input.reset === 1 || input.reset === 'true' || input.reset === true;
      if (reset) await ctx.store.recaps.deleteOne({ _id: key });

      const now = ctx.clock.nowDate();
      const cached = await ctx.store.recaps.findOne({ _id: key });
      if (cached?.status === 'ready' && cached.html !== null) return sendHtml(reply, 200, cached.html);
      const stale = cached !== null && now.getTime() - cached.updatedAt.getTime() > STALE_BUILD_MS;
      let queue = stale;
      if (!cached) {
        try {
          await ctx.store.recaps.insertOne({
            _id: key,
            userId: auth.userId,
            ids: visible,
            status: 'building',
            html: null,
            createdAt: now,
            updatedAt: now,
            expiresAt: new Date(now.getTime() + RECAP_TTL_MS),
          });
          queue = true;
        } catch (err) {
          // A concurrent request started the same build.
          if (!(err instanceof DuplicateKeyError)) throw err;
        }
      }
      if (queue) {
        await ctx.jobs.enqueue(
          JOB.recap,
          { userId: auth.userId, key, ids: visible },
          { key: `recap:${key}`, maxAttempts: 2 },
        );
      }
      return sendHtml(reply, 202, PREPARING_HTML);
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/recap/email',
    scope: 'read',
    response: { 200: recapEmailSchema },
    handler: async ({ auth }) => {
      const settings = await ctx.store.recapSettings.findOne({ _id: auth.userId });
      return { dayofweek: settings?.dayofweek ?? '' };
    },
  });

  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/recap/email',
    scope: 'create',
    input: z.object({ dayofweek: dayParam() }),
    response: { 200: recapEmailSchema },
    handler: async ({ input, auth }) => {
      await ctx.store.recapSettings.updateOne(
        { _id: auth.userId },
        { $set: { dayofweek: input.dayofweek }, $setOnInsert: { lastSentOn: null } },
        { upsert: true },
      );
      return { dayofweek: input.dayofweek };
    },
  });
}
