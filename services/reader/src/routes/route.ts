// readerRoute: the platform's defineRoute, with the reader's authentication (Bearer or Basic, done in
// the scope's onRequest hook) and the scope each route needs.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  defineRoute,
  sha256Hex,
  type AuthInfo,
  type ResponseSchemas,
  type RouteSpec,
} from '@murmur/platform';
import type { ReaderScope } from './auth.js';

type BaseSpec<PS, IS, R> = RouteSpec<
  PS extends z.ZodType ? PS : undefined,
  IS extends z.ZodType ? IS : undefined,
  undefined,
  R extends ResponseSchemas ? R : undefined
>;
type HandlerContext<PS, IS, R> = Omit<Parameters<BaseSpec<PS, IS, R>['handler']>[0], 'auth'> & {
  auth: AuthInfo;
};

export type ReaderRouteSpec<PS, IS, R> = Omit<BaseSpec<PS, IS, R>, 'auth' | 'scopes' | 'handler'> & {
  scope: ReaderScope;
  handler: (ctx: HandlerContext<PS, IS, R>) => ReturnType<BaseSpec<PS, IS, R>['handler']>;
};

/** Which scope each (method, route pattern) needs; read by the authentication hook. */
export class RouteScopes {
  private readonly scopes = new Map<string, ReaderScope>();

  set(method: string, url: string, scope: ReaderScope): void {
    this.scopes.set(`${method} ${url}`, scope);
  }

  get = (method: string, url: string): ReaderScope | undefined => this.scopes.get(`${method} ${url}`);
}

export function readerRoute<
  PS extends z.ZodType | undefined = undefined,
  IS extends z.ZodType | undefined = undefined,
  R extends ResponseSchemas | undefined = undefined,
>(scope: FastifyInstance, scopes: RouteScopes, spec: ReaderRouteSpec<PS, IS, R>): void {
  const { scope: needed, handler, ...rest } = spec;
  for (const method of Array.isArray(spec.method) ? spec.method : [spec.method])
    scopes.set(method, spec.url, needed);
  const route = {
    ...rest,
    handler: async (ctx: Parameters<BaseSpec<PS, IS, R>['handler']>[0]) => {
      const auth = ctx.request.readerAuth;
      // The scope's onRequest hook sets it for every route; without it the route was mounted wrongly.
      if (!auth) throw new Error(`${spec.url}: reader route without the reader's auth hook`);
      return handler({ ...ctx, auth });
    },
  } as BaseSpec<PS, IS, R>;
  defineRoute(scope, route);
}

/** Rate-limit key of authenticated routes: the credential (one per token or Basic login). */
export function credentialKey(request: { headers: { authorization?: string } }): string {
  return sha256Hex(request.headers.authorization ?? '');
}
