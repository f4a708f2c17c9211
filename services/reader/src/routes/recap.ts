// POST /feeds/recap (202 while a job builds it, then 200 with the cached HTML fragment) and the weekly
// recap email settings. `{"error"}` error shape.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { defineRoute, HTML_PAGE_HEADERS, lastValue } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { PREPARING_HTML } from '../domain/recap.js';
import { recapEmailDay, requestRecap, setRecapEmailDay } from '../domain/recaps.js';
import { DAYS, type Day } from '../store/index.js';
import { createScope, readScope } from './access.js';
import { idList } from './params.js';
import { recapEmailSchema } from '../shapes.js';

const MAX_IDS = 1000;

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(HTML_PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
}

const dayParam = () =>
  z.unknown().transform((raw, ctx): Day | '' => {
    const v = lastValue(raw);
    const day = typeof v === 'string' ? v.trim().toLowerCase() : null;
    if (day === '' || (day !== null && (DAYS as readonly string[]).includes(day))) return day as Day | '';
    ctx.addIssue({ code: 'custom', message: 'must be a day of the week (monday … sunday) or "" for off' });
    return z.NEVER;
  });

export function registerRecapRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/recap',
    ...readScope,
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
      key: 'user',
      name: 'reader-recap',
      max: ctx.config.READER_RECAP_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    },
    handler: async ({ input, auth, reply }) => {
      const reset =
        input.reset === '1' || input.reset === 1 || input.reset === 'true' || input.reset === true;
      const recap = await requestRecap(ctx, auth.userId, input.ids, reset);
      return recap.status === 'ready'
        ? sendHtml(reply, 200, recap.html)
        : sendHtml(reply, 202, PREPARING_HTML);
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/recap/email',
    ...readScope,
    response: { 200: recapEmailSchema },
    handler: async ({ auth }) => ({ dayofweek: await recapEmailDay(ctx, auth.userId) }),
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/recap/email',
    ...createScope,
    input: z.object({ dayofweek: dayParam() }),
    response: { 200: recapEmailSchema },
    handler: async ({ input, auth }) => ({
      dayofweek: await setRecapEmailDay(ctx, auth.userId, input.dayofweek),
    }),
  });
}
