// GET /{username}/ — the page behind a user's `me` until they have a site of their own. IndieAuth
// clients fetch `me` to discover this server and check that it declares the authorization server
// that answered, so the page carries the endpoint links (as <link> and as a Link header) and an h-card;
// Microsub readers find the microsub endpoint the same way.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, escapeHtml, HTML_PAGE_HEADERS } from '@murmur/http';
import type { IdentityContext } from '../domain/context.js';
import { profilePage } from '../domain/profile.js';
import { html, page, sendHtml } from './html.js';

export function discoveryLinks(publicUrl: string): Array<{ rel: string; href: string }> {
  return [
    { rel: 'indieauth-metadata', href: `${publicUrl}/.well-known/oauth-authorization-server` },
    { rel: 'authorization_endpoint', href: `${publicUrl}/indieauth/auth` },
    { rel: 'token_endpoint', href: `${publicUrl}/indieauth/token` },
    // Microsub readers (Monocle, Indigenous) find the user's reader server here (docs/api/microsub.md).
    { rel: 'microsub', href: `${publicUrl}/microsub` },
  ];
}

export function registerProfilePageRoute(scope: FastifyInstance, ctx: IdentityContext): void {
  const base = ctx.config.PUBLIC_URL;
  const links = discoveryLinks(base);
  const linkHeader = links.map((l) => `<${l.href}>; rel="${l.rel}"`).join(', ');

  defineRoute(scope, {
    method: 'GET',
    url: '/:username/',
    errorStyle: 'html',
    params: z.object({ username: z.string().regex(/^[a-z][a-z0-9_]{0,29}$/) }),
    handler: async ({ params, reply }) => {
      const found = await profilePage(ctx, params.username);
      if (!found) {
        return sendHtml(
          reply,
          404,
          page(
            'Not found',
            html`<h1>Not found</h1>
              <p>There is no such person here.</p>`,
          ),
        );
      }
      const { profile, bio } = found;
      const head = links.map((l) => `<link rel="${l.rel}" href="${escapeHtml(l.href)}" />`).join('\n    ');
      const body = html`<div class="h-card app">
          <img class="u-photo logo" src="${profile.photo}" alt="" />
          <div>
            <h1><a class="p-name u-url u-uid" href="${profile.url}">${profile.name}</a></h1>
            <p class="client-id">@<span class="p-nickname">${profile.nickname}</span></p>
          </div>
        </div>
        ${bio ? html`<p class="p-note">${bio}</p>` : ''}`;
      // The page is public and changes only when the profile does: a short cache is safe.
      return reply
        .code(200)
        .headers(HTML_PAGE_HEADERS)
        .header('link', linkHeader)
        .header('cache-control', 'public, max-age=300')
        .type('text/html; charset=utf-8')
        .send(page(profile.name, body).text.replace('<head>', `<head>\n    ${head}`));
    },
  });
}
