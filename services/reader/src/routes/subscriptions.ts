// Subscriptions: list, show, create (with feed discovery), rename, delete, refresh.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, notFound } from '@murmur/core';
import { zParam, defineRoute, lastValue } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { subscriptionJson } from '../domain/subscription-json.js';
import {
  normaliseFeedInput,
  ownSubscription,
  renameSubscription,
  requestRefresh,
  subscribe,
  unsubscribe,
  withFreshFeeds,
} from '../domain/subscriptions.js';
import { setLastModified } from './http-cache.js';
import { modeParam, pathId, sinceParam } from './params.js';
import { choicesSchema, feedbinErrorSchema, subscriptionSchema } from '../shapes.js';
import { followScope, readScope } from './access.js';

const TITLE_MAX = 255;

/** `title`: required, 1–255 characters after trimming. */
const titleParam = () =>
  z.unknown().transform((raw, ctx): string => {
    const v = lastValue(raw);
    if (typeof v !== 'string') {
      ctx.addIssue({ code: 'custom', message: 'Must be a string' });
      return z.NEVER;
    }
    const text = v.trim();
    if (text === '' || text.includes('\u0000') || text.length > TITLE_MAX) {
      ctx.addIssue({ code: 'custom', message: `Must be 1 to ${TITLE_MAX} characters` });
      return z.NEVER;
    }
    return text;
  });

export function registerSubscriptionRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  const location = (id: number) => `${ctx.config.PUBLIC_URL}/feeds/v2/subscriptions/${id}.json`;

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/subscriptions.json',
    ...readScope,
    input: z.object({ since: sinceParam().optional(), mode: modeParam() }),
    response: { 200: z.array(subscriptionSchema) },
    handler: async ({ input, auth, reply }) => {
      const view = await ctx.views.get(auth.userId);
      const subs = view.subscriptions.filter((s) => input.since === undefined || s.createdAt > input.since);
      const extended = input.mode === true;
      // Extended mode shows polling state, which changes without the user's lists changing.
      if (!extended) setLastModified(reply, view.listChangedAt.subscriptions, ctx.clock);
      return (await withFreshFeeds(ctx, subs, extended)).map((s) => subscriptionJson(s, extended));
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/v2/subscriptions.json',
    ...followScope,
    input: z.object({ feed_url: z.unknown().optional(), url: z.unknown().optional() }),
    response: {
      200: subscriptionSchema,
      302: subscriptionSchema,
      300: choicesSchema,
      404: feedbinErrorSchema,
    },
    rateLimit: {
      key: 'user',
      name: 'reader-subscribe',
      max: ctx.config.READER_SUBSCRIBE_LIMIT_PER_MINUTE,
      windowMs: 60_000,
    },
    handler: async ({ input, auth, reply }) => {
      // Some clients send `url`; `feed_url` is the documented name.
      const raw = input.feed_url ?? input.url;
      const value = lastValue(raw);
      if (value === undefined || value === null || value === '') {
        throw badRequest('Missing parameter: feed_url', 'feed_url');
      }
      if (typeof value !== 'string') throw badRequest('Must be an http or https URL', 'feed_url');
      const url = normaliseFeedInput(value, 'feed_url');
      const outcome = await subscribe(ctx, auth.userId, url);
      if (outcome.kind === 'none') {
        // Feedbin's own wording for this 404, which clients show.
        reply.code(404);
        return { status: 404, message: 'No feed found', errors: [] };
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

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/subscriptions/:id.json',
    digitParams: ['id'],
    ...readScope,
    params: pathId,
    input: z.object({ mode: modeParam() }),
    response: { 200: subscriptionSchema },
    handler: async ({ params, input, auth }) => {
      const sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub) throw notFound();
      const extended = input.mode === true;
      return subscriptionJson((await withFreshFeeds(ctx, [sub], extended))[0]!, extended);
    },
  });

  defineRoute(scope, {
    method: 'PATCH',
    url: '/feeds/v2/subscriptions/:id.json',
    digitParams: ['id'],
    ...followScope,
    params: pathId,
    input: z.object({ title: titleParam() }),
    response: { 200: subscriptionSchema },
    handler: async ({ params, input, auth }) => {
      const sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub) throw notFound();
      return subscriptionJson(await renameSubscription(ctx, sub, auth.userId, input.title), false);
    },
  });

  defineRoute(scope, {
    method: 'DELETE',
    url: '/feeds/v2/subscriptions/:id.json',
    digitParams: ['id'],
    ...followScope,
    params: pathId,
    handler: async ({ params, auth, reply }) => {
      const sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub || !(await unsubscribe(ctx, sub, auth.userId))) throw notFound();
      reply.code(204).type('text/plain');
      return undefined;
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/v2/subscriptions/:id/update.json',
    digitParams: ['id'],
    ...followScope,
    params: z.object({ id: zParam.id() }),
    input: z.object({ title: titleParam().optional() }),
    response: { 200: subscriptionSchema },
    handler: async ({ params, input, auth }) => {
      let sub = ownSubscription(await ctx.views.get(auth.userId), params.id);
      if (!sub) throw notFound();
      // NetNewsWire renames through this route; anyone may ask for a refresh through it.
      if (input.title !== undefined) sub = await renameSubscription(ctx, sub, auth.userId, input.title);
      await requestRefresh(ctx, sub);
      return subscriptionJson(sub, false);
    },
  });
}
