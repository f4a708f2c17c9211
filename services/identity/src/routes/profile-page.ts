// GET /{username}/ — the page behind a user's `me` until they have a site of their own. IndieAuth
// clients fetch `me` to discover this server and check that it declares the authorization server
// that answered, so the page carries the endpoint links (as <link> and as a Link header); Microsub
// readers and Micropub clients find the microsub and micropub endpoints the same way. It holds one representative h-card (its `url` and
// `uid` are the page's address) with the user's profile links as rel="me", in the body and the head.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute, HTML_PAGE_HEADERS } from '@murmur/http';
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
    // Micropub clients (Quill, Indigenous, Monocle's like buttons) find where to post (docs/api/publishing.md).
    { rel: 'micropub', href: `${publicUrl}/micropub` },
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
      const head = [
        ...links.map((l) => html`<link rel="${l.rel}" href="${l.href}" />`),
        ...found.links.map((href) => html`<link rel="me" href="${href}" />`),
      ].join('\n    ');
      // One h-card and nothing else marked up: parsers take it as the page's representative h-card.
      const body = html`<div class="h-card">
        <div class="app">
          <img class="u-photo logo" src="${found.photo}" alt="" />
          <div>
            <h1><a class="p-name u-url u-uid" href="${found.pageUrl}">${found.name}</a></h1>
            <p class="client-id">@<span class="p-nickname">${found.nickname}</span></p>
          </div>
        </div>
        ${found.bio ? html`<p class="p-note">${found.bio}</p>` : ''}
        ${
          found.links.length > 0
            ? html`<ul class="links">
                ${found.links.map((href) => html`<li><a rel="me" class="u-url" href="${href}">${href}</a></li>`)}
              </ul>`
            : ''
        }
        ${found.site ? html`<p class="hint">Site: <a class="u-url" href="${found.site}">${found.site}</a></p>` : ''}
      </div>`;
      // The page is public and changes only when the profile does: a short cache is safe.
      return reply
        .code(200)
        .headers(HTML_PAGE_HEADERS)
        .header('link', linkHeader)
        .header('cache-control', 'public, max-age=300')
        .type('text/html; charset=utf-8')
        .send(page(found.name, body).text.replace('<head>', `<head>\n    ${head}`));
    },
  });
}
