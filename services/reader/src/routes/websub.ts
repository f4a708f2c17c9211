// The WebSub callback (docs/api/reader.md "WebSub"): `/feeds/v2/websub/{token}`, one per subscription
// the reader holds at a hub, with no credentials — the unguessable token names the subscription and
// the secret signs its deliveries. GET is the hub's intent verification (the challenge, or 404); POST a
// delivery, read as bytes whatever its media type (the signature covers the bytes, and the document is
// parsed as a poll's would be). This scope replaces the platform's body parsers for these routes alone.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound } from '@murmur/core';
import { defineRoute } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import { DELIVERY_BODY_LIMIT, receiveDelivery, verifyIntent } from '../domain/websub.js';

const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const tokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });
const text = (max: number) => z.string().max(max).optional();

export function registerWebSubRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    rawBodies.set(request, body as Buffer);
    done(null, undefined);
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/feeds/v2/websub/:token',
    params: tokenParam,
    input: z.object({
      'hub.mode': text(32),
      'hub.topic': text(4096),
      'hub.challenge': text(1024),
      'hub.lease_seconds': text(32),
      'hub.reason': text(1024),
    }),
    handler: async ({ params, input, reply }) => {
      const answer = await verifyIntent(ctx, params.token, {
        mode: input['hub.mode'],
        topic: input['hub.topic'],
        challenge: input['hub.challenge'],
        leaseSeconds: input['hub.lease_seconds'],
        reason: input['hub.reason'],
      });
      if (answer === null) throw notFound('No such subscription request.');
      reply.code(200).type('text/plain; charset=utf-8');
      return reply.send('challenge' in answer ? answer.challenge : '');
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/feeds/v2/websub/:token',
    params: tokenParam,
    // Deliveries are feed documents of any XML or JSON type.
    xml: true,
    bodyLimit: DELIVERY_BODY_LIMIT,
    handler: async ({ params, request, reply }) => {
      const outcome = await receiveDelivery(ctx, params.token, {
        body: rawBodies.get(request) ?? Buffer.alloc(0),
        contentType: request.headers['content-type'],
        signature: headerValue(request.headers['x-hub-signature']),
      });
      // 410 tells the hub to drop a subscription we no longer hold; anything else is acknowledged.
      if (outcome === 'gone') {
        reply.code(410).type('text/plain; charset=utf-8');
        return reply.send('No such subscription.');
      }
      reply.code(outcome === 'stored' ? 204 : 202);
      return reply.send();
    },
  });
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
