// The error style of a path no row of the route table serves, by area: a Feedbin client gets a Feedbin
// 404, an OAuth client an OAuth one. Every other path gets the default (`simple`). The gateway's own
// policy, written here by hand; the generator (route-table-generator.ts) also reads it for the routes
// whose service answers errors as HTML pages, which the gateway never draws.
import { defineRouteTable, type ErrorStyle } from './route-entry.js';
import { RouteMatcher } from './route-matcher.js';

const feedbin = { errorStyle: 'feedbin' } as const;
const oauth = { errorStyle: 'oauth' } as const;

// prettier-ignore
const areaTable = defineRouteTable({ errorStyle: 'simple' }, [
  ['*', '/feeds/v2/*',                              'reader',   feedbin],
  ['*', '/indieauth/*',                             'identity', oauth],
  ['*', '/.well-known/oauth-authorization-server',  'identity', oauth],
  ['*', '/microsub',                                'microsub', oauth],
]);

const areas = new RouteMatcher(areaTable);

/** The error style in which the gateway answers a request for `pathname` that no entry serves. */
export function areaErrorStyleOf(pathname: string): ErrorStyle {
  return areas.match('GET', pathname)?.errorStyle ?? 'simple';
}
