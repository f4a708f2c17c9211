// The unread and starred sets: complete GETs (never paginated: clients take them as the truth) and the
// changes, with bodies as a JSON object, a bare JSON array, a form or a comma-separated string.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@murmur/http';
import type { ReaderContext } from '../domain/context.js';
import type { ListName } from '../store/index.js';
import { changeEntrySets, starredIds, type SetChange } from '../domain/sets.js';
import { unreadIds, type UserView } from '../domain/views.js';
import { setLastModified } from './http-cache.js';
import { idList } from './params.js';
import { idsSchema } from '../shapes.js';
import { readScope } from './access.js';

const MAX_IDS = 1000;

function setInput(param: string) {
  return z.object({
    [param]: idList({
      max: MAX_IDS,
      tooMany: 'At most 1,000 ids per request',
      notInteger: 'Must be a list of integer entry ids',
    }),
  });
}

export function registerSetRoutes(scope: FastifyInstance, ctx: ReaderContext): void {
  for (const [param, list, name] of [
    ['unread_entries', unreadIds, 'unread'],
    ['starred_entries', starredIds, 'starred'],
  ] as Array<[string, (view: UserView) => number[], ListName]>) {
    defineRoute(scope, {
      method: 'GET',
      url: `/feeds/v2/${param}.json`,
      ...readScope,
      response: { 200: idsSchema },
      handler: async ({ auth, reply }) => {
        const view = await ctx.views.get(auth.userId);
        setLastModified(reply, view.listChangedAt[name], ctx.clock);
        return list(view);
      },
    });
  }

  const changes: Array<{ method: 'POST' | 'DELETE'; url: string; param: string; change: SetChange }> = [
    { method: 'POST', url: '/feeds/v2/unread_entries.json', param: 'unread_entries', change: 'unread' },
    { method: 'DELETE', url: '/feeds/v2/unread_entries.json', param: 'unread_entries', change: 'read' },
    { method: 'POST', url: '/feeds/v2/unread_entries/delete.json', param: 'unread_entries', change: 'read' },
    { method: 'POST', url: '/feeds/v2/starred_entries.json', param: 'starred_entries', change: 'star' },
    { method: 'DELETE', url: '/feeds/v2/starred_entries.json', param: 'starred_entries', change: 'unstar' },
    {
      method: 'POST',
      url: '/feeds/v2/starred_entries/delete.json',
      param: 'starred_entries',
      change: 'unstar',
    },
  ];
  for (const { method, url, param, change } of changes) {
    defineRoute(scope, {
      method,
      url,
      ...readScope,
      arrayBody: param,
      input: setInput(param),
      response: { 200: idsSchema },
      handler: async ({ input, auth }) => changeEntrySets(ctx, auth.userId, input[param] as number[], change),
    });
  }
}
