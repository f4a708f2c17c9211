// Actors, their collections and notes (docs/api/federation.md, "Documents"). The actor and note URLs
// negotiate: an ActivityPub Accept gets the JSON document, a browser is sent to the existing HTML page
// (the profile page, the post's permalink).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { defineRoute, zParam } from '@murmur/http';
import type { FederationContext } from '../domain/context.js';
import {
  actorDocument,
  followersDocument,
  followingDocument,
  instanceActorDocument,
  noteDocument,
  outboxDocument,
  permalinkOf,
  profilePageOf,
} from '../domain/discovery.js';
import { wantsActivityJson } from '../domain/negotiate.js';
import { apDocumentSchema } from '../shapes.js';

const AP_CONTENT_TYPE = 'application/activity+json; charset=utf-8';
const usernameParam = z.object({ username: z.string().min(1).max(64) });

function asActivityJson<T>(reply: FastifyReply, doc: T): T {
  reply.header('content-type', AP_CONTENT_TYPE).header('vary', 'Accept');
  return doc;
}

function toPage(reply: FastifyReply, url: string): FastifyReply {
  return reply.header('vary', 'Accept').redirect(url, 302);
}

export function registerActorRoutes(scope: FastifyInstance, ctx: FederationContext): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/ap/actor',
    response: { 200: apDocumentSchema },
    handler: async ({ reply }) => asActivityJson(reply, await instanceActorDocument(ctx)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/ap/users/:username',
    params: usernameParam,
    response: { 200: apDocumentSchema },
    handler: async ({ params, request, reply }) => {
      if (!wantsActivityJson(request.headers.accept)) {
        return toPage(reply, await profilePageOf(ctx, params.username));
      }
      return asActivityJson(reply, await actorDocument(ctx, params.username));
    },
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/ap/users/:username/outbox',
    params: usernameParam,
    input: z.object({ page: zParam.int({ min: 1, max: 100_000 }).optional() }),
    response: { 200: apDocumentSchema },
    handler: async ({ params, input, reply }) =>
      asActivityJson(reply, await outboxDocument(ctx, params.username, input.page)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/ap/users/:username/followers',
    params: usernameParam,
    response: { 200: apDocumentSchema },
    handler: async ({ params, reply }) =>
      asActivityJson(reply, await followersDocument(ctx, params.username)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/ap/users/:username/following',
    params: usernameParam,
    response: { 200: apDocumentSchema },
    handler: async ({ params, reply }) =>
      asActivityJson(reply, await followingDocument(ctx, params.username)),
  });

  defineRoute(scope, {
    method: 'GET',
    url: '/ap/notes/:id',
    params: z.object({ id: zParam.id() }),
    digitParams: ['id'],
    response: { 200: apDocumentSchema },
    handler: async ({ params, request, reply }) => {
      if (!wantsActivityJson(request.headers.accept)) return toPage(reply, await permalinkOf(ctx, params.id));
      return asActivityJson(reply, await noteDocument(ctx, params.id));
    },
  });
}
