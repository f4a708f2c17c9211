// The inboxes: a user's own and the shared one (docs/api/federation.md, "Inbox"). Bodies are read as
// bytes (the Digest covers the bytes sent, not their parse) for the media types servers send; the
// platform's JSON and form parsers are replaced in this scope only. 202 once the activity is handled.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import type { FederationContext } from '../domain/context.js';
import { receiveActivity } from '../domain/inbox.js';

/** The activity's bytes, kept beside the request (the route's parameters stay empty). */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const INBOX_MEDIA_TYPES = ['application/activity+json', 'application/ld+json', 'application/json'];
/** Mastodon's own limit for an inbound activity is 1 MB; ours is a quarter of it (notes are small). */
const INBOX_BODY_LIMIT = 256 * 1024;
const usernameParam = z.object({ username: z.string().min(1).max(64) });

export function registerInboxRoutes(scope: FastifyInstance, ctx: FederationContext): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(INBOX_MEDIA_TYPES, { parseAs: 'buffer' }, (request, body, done) => {
    rawBodies.set(request, body as Buffer);
    done(null, undefined);
  });

  const handle = async (request: FastifyRequest, username: string | undefined) => {
    await receiveActivity(ctx, {
      ...(username === undefined ? {} : { username }),
      method: request.method,
      path: request.url,
      headers: request.headers,
      body: rawBodies.get(request),
    });
  };

  defineRoute(scope, {
    method: 'POST',
    url: '/ap/inbox',
    bodyLimit: INBOX_BODY_LIMIT,
    handler: async ({ request, reply }) => {
      await handle(request, undefined);
      reply.code(202);
    },
  });

  defineRoute(scope, {
    method: 'POST',
    url: '/ap/users/:username/inbox',
    params: usernameParam,
    bodyLimit: INBOX_BODY_LIMIT,
    handler: async ({ params, request, reply }) => {
      await handle(request, params.username);
      reply.code(202);
    },
  });
}
