// GET /account/avatar/{username}.svg — the identicon behind `fallback_avatar_url`. It is derived from
// the name alone, so it is served for any well-formed username: existence is not revealed.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import { identiconSvg } from '../domain/identicon.js';

export function registerAvatarRoute(scope: FastifyInstance): void {
  defineRoute(scope, {
    method: 'GET',
    url: '/account/avatar/:file',
    params: z.object({ file: z.string().regex(/^[a-z][a-z0-9_]{0,29}\.svg$/) }),
    handler: async ({ params, reply }) => {
      const username = params.file.slice(0, -'.svg'.length);
      return reply
        .headers({
          'content-type': 'image/svg+xml; charset=utf-8',
          // An SVG is a document: sandboxed, it can never run script (docs/security.md).
          'content-security-policy': "default-src 'none'; sandbox",
          'x-content-type-options': 'nosniff',
          'cache-control': 'public, max-age=86400',
        })
        .send(identiconSvg(username));
    },
  });
}
