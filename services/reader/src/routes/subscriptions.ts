// Subscriptions: list, show, create (with feed discovery), rename, delete, refresh.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, notFound, zParam } from '@murmur/platform';
import { JOB, type ReaderContext } from '../domain/context.js';
import {
  normaliseFeedInput,
  ownSubscription,
  renameSubscription,
  subscribe,
  subscriptionJson,
  unsubscribe,
} from '../domain/subscriptions.js';
import type { SubscriptionView } from '../domain/views.js';
import { setLastModified } from './http-cache.js';
import { modeParam, pathId, sinceParam } from './params.js';
import { credentialKey, readerRoute, type RouteScopes } from './route.js';
import { choicesSchema, subscriptionSchema } from './schemas.js';

const TITLE_MAX = 255;

/** `title`: required, 1–255 characters after trimming. */
const titleParam = () =>
  z.unknown().transform((raw, ctx): string => {
    const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    const text = typeof v === 'string' ? v.trim() : '';
    if (typeof v !== 'string' || text === '' || text.includes('\u0000') || text.length > TITLE_MAX) {
      ctx.addIssue({ code: 'custom', message: `Must be 1 to ${TITLE_MAX} characters` });
      return z.NEVER;
    }
    return text;
  });

export function registerSubscriptionRoutes(
  scope: FastifyInstance,
  scopes: RouteScopes,
  ctx: ReaderContext,
): void {
  const location = (id: number) => `${ctx.config.PUBLIC_URL}/feeds/v2/subscriptions/${id}.json`;

  /** Extended mode shows polling state, which changes without the user doing anything: read it fresh. */
  async function render(subs: SubscriptionView[], extended: boolean) {
    if (!extended) return subs.map((s) => subscriptionJson(s, false));
    const feeds = await ctx.store.feeds.find({ _id: { $in: subs.map((s) => s.feedId) } });
    const byId = new Map(feeds.map((f) => [f._id, f]));
    return subs.map((s) => subscriptionJson({ ...s, feed: byId.get(s.feedId) ?? s.feed }, true));
  }

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/subscriptions.json',
    scope: 'read',
    input: z.object({ since: sinceParam().optional(), mode: modeParam() }),
    response: { 200: z.array(subscriptionSchema) },
    handler: async ({ input, auth, reply }) => {
      const view = await ctx.views.get(auth.userId);
      const subs = view.subscriptions.filter((s) => input.since === undefined || s.createdAt > input.since);
      setLastModified(reply, view.updatedAt, ctx.clock);
      return render(subs, input.mode === true);
    },
  });

  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/v2/subscriptions.json',
    scope: 'follow',
    input: z.object({ feed_url: z.unknown().optional(), url: z.unknown().optional() }),
    response: { 200: subscriptionSchema, 302: subscriptionSchema, 300: choicesSchema },
    rateLimit: {
      max: ctx.config.READER_SUBSCRIBE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: credentialKey,
    },
    handler: async ({ input, auth, reply }) => {
      // Some clients send `url`; `feed_url` is the documented name.
      const raw = input.feed_url ?? input.url;
      const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      if (value === undefined || value === null || value === '') {
        throw badRequest('Missing parameter: feed_url', 'feed_url');
      }
      if (typeof value !== 'string') throw badRequest('Must be an http or https URL', 'feed_url');
      const url = normaliseFeedInput(value, 'feed_url');
      const outcome = await subscribe(ctx, auth.userId, url);
      if (outcome.kind === 'none') {
        return reply
          .code(404)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify({ status: 404, message: 'No feed found', errors: [] }));
      }
      if (outcome.kind === 'choices') {
        reply.code(300);
        return outcome.choices;
      }
      reply
        .code(outcome.kind === 'created' ? 200 : 302)
        .header('location', location(outcome.subscription.id));
      return subscriptionJson(outcome.subscription, false);
    },
  });

  readerRoute(scope, scopes, {
    method: 'GET',
    url: '/feeds/v2/subscriptions/:id.json',
    scope: 'read',
    params: pathId,
    input: z.object({ mode: modeParam() }),
    response: { 200: subscriptionSchema },
    handler: async ({ params, input, auth }) => {
      const sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub) throw notFound();
      return (await render([sub], input.mode === true))[0]!;
    },
  });

  readerRoute(scope, scopes, {
    method: 'PATCH',
    url: '/feeds/v2/subscriptions/:id.json',
    scope: 'follow',
    params: pathId,
    input: z.object({ title: titleParam() }),
    response: { 200: subscriptionSchema },
    handler: async ({ params, input, auth }) => {
      const sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub) throw notFound();
      return subscriptionJson(await renameSubscription(ctx, sub, auth.userId, input.title), false);
    },
  });

  readerRoute(scope, scopes, {
    method: 'DELETE',
    url: '/feeds/v2/subscriptions/:id.json',
    scope: 'follow',
    params: pathId,
    handler: async ({ params, auth, reply }) => {
      const sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub || !(await unsubscribe(ctx, sub, auth.userId))) throw notFound();
      reply.code(204).type('text/plain');
      return undefined;
    },
  });

  readerRoute(scope, scopes, {
    method: 'POST',
    url: '/feeds/v2/subscriptions/:id/update.json',
    scope: 'follow',
    params: z.object({ id: zParam.id() }),
    input: z.object({ title: titleParam().optional() }),
    response: { 200: subscriptionSchema },
    handler: async ({ params, input, auth }) => {
      let sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub) throw notFound();
      // NetNewsWire renames through this route; anyone may ask for a refresh through it.
      if (input.title !== undefined) sub = await renameSubscription(ctx, sub, auth.userId, input.title);
      await ctx.jobs.enqueue(
        JOB.refresh,
        { feedId: sub.feedId },
        { key: `feed:${sub.feedId}`, maxAttempts: 3 },
      );
      return subscriptionJson(sub, false);
    },
  });
}
