// The gateway's own policy about particular service routes, where it is not what the route declares:
// read by the generator of the route table (route-table-generator.ts) only. Keyed
// `<service> <METHOD> <Fastify URL>` as the service registers the route; the generator fails when a key
// names a route no service registers, so an entry cannot outlive its route unnoticed.
//
// Everything a route says about itself (its body limit, time limit, error style, cross-origin reads,
// integer path parameters) is declared on the route in its service (defineRoute in libs/http/src/route.ts),
// not here.

export type OverlayRule =
  /**
   * Served only on the sites' own host names, which the gateway sends to publishing by Host
   * (SITE_HOST_ROUTE in routes.ts): no row of the public host's table.
   */
  | 'site-hosts-only'
  /**
   * The service answers every method of the path itself: one row for any method (`*`), with this
   * route's limits, which takes in the service's other routes of the path.
   */
  | 'every-method';

export const routeOverlay: Readonly<Record<string, OverlayRule>> = {
  // Publishing's catch-all for a site on its own host name.
  'publishing GET /*': 'site-hosts-only',
  // XML-RPC answers a method other than POST with 405 as an XML-RPC transport error, so it gets them all,
  // with the POST's body and time limits (services/publishing/src/routes/xmlrpc.ts).
  'publishing POST /xmlrpc': 'every-method',
};
