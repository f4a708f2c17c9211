// Generates the gateway's route table (routes.generated.ts) from the routes the services register, so a
// new endpoint cannot be forgotten there. Run at build time only (scripts/generate-gateway-routes.mjs
// lists the services' routes and calls this): the gateway never loads it, and it loads no service.
//
// A service's route becomes a row as it declares itself (registeredRoutes of libs/http/src/app.ts):
// - its Fastify URL becomes the pattern (`:name` → `{name}`, `{name:int}` for the parameters the route
//   declares in `digitParams`, a trailing `*` stays);
// - its error style is the row's, except an HTML page's (the gateway draws none): the area's then
//   (route-areas.ts);
// - its body limit, time limit and cross-origin reads (`crossOrigin`) are the row's;
// - the methods of one pattern with the same options share a row; HEAD goes with GET (a GET row
//   answers HEAD), OPTIONS is left out (the gateway answers the preflights of cross-origin routes
//   itself), and the operators' /healthz, /readyz and /metrics are never routed.
// The gateway's own policy about particular routes comes from route-overlay.ts.
import { SERVICE_NAMES, type ServiceName } from '@murmur/core';
import { DEFAULT_BODY_LIMIT, PROBE_PATHS, type RegisteredRoute } from '@murmur/http';
import { areaErrorStyleOf } from './route-areas.js';
import type { RouteOptions, RouteRow } from './route-entry.js';
import { compilePattern } from './route-matcher.js';
import { routeOverlay, type OverlayRule } from './route-overlay.js';

/** The file this generates, from the repository's root. */
export const GENERATED_ROUTES_FILE = 'gateway/src/routes.generated.ts';
/** What a developer runs to regenerate it (`npm run build` runs it too). */
export const GENERATE_ROUTES_COMMAND = 'node scripts/generate-gateway-routes.mjs';

/**
 * The environment the services are built with to list their routes: their defaults and nothing from the
 * machine, so the table does not depend on who generates it (a limit a route takes from configuration
 * is its default one). `DATA_DIR` is added by whoever builds them.
 */
export const ROUTE_LISTING_ENV: Readonly<Record<string, string>> = {
  STORE_URL: 'memory:',
  PUBLIC_URL: 'http://murmur.test',
  MURMUR_ADMIN_TOKEN: 'route-listing-admin-token-0123456789',
  LOG_LEVEL: 'silent',
};

export interface ServiceRoutes {
  /** The service's name (ServiceDefinition.name). */
  service: string;
  routes: readonly RegisteredRoute[];
}

const METHOD_ORDER = ['*', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const PARAM_END = new Set(['/', '-', '.', '(']);

/**
 * The gateway's pattern for a Fastify URL: `/feeds/:entry_id/highlights` with `digitParams:
 * ['entry_id']` → `/feeds/{entry_id:int}/highlights`. Regular-expression parameters and escaped colons
 * have no gateway spelling and are refused, as is a `*` anywhere but at the end after a `/`.
 */
export function gatewayPattern(url: string, digitParams: readonly string[] = []): string {
  let pattern = '';
  for (let i = 0; i < url.length;) {
    const c = url[i]!;
    if (c === ':') {
      if (url[i + 1] === ':') throw new Error(`route ${url}: an escaped colon has no gateway pattern`);
      let end = i + 1;
      while (end < url.length && !PARAM_END.has(url[end]!)) end++;
      if (url[end] === '(')
        throw new Error(`route ${url}: a regular-expression parameter has no gateway pattern`);
      const name = url.slice(i + 1, end);
      pattern += `{${name}${digitParams.includes(name) ? ':int' : ''}}`;
      i = end;
    } else if (c === '*') {
      if (i !== url.length - 1 || url[i - 1] !== '/')
        throw new Error(`route ${url}: a wildcard has a gateway pattern only as the last segment`);
      pattern += '*';
      i++;
    } else {
      pattern += c;
      i++;
    }
  }
  compilePattern(pattern); // refuses what the matcher cannot read (a parameter name it does not allow)
  return pattern;
}

/** A path the pattern matches: each parameter one digit, a trailing `/*` nothing. */
function pathOfPattern(pattern: string): string {
  return pattern.replace(/\/\*$/, '').replace(/\{[a-z_]+(?::int)?\}/g, '1') || '/';
}

function optionsOf(route: RegisteredRoute, pattern: string): RouteOptions {
  const options: RouteOptions = {};
  const style = route.errorStyle === 'html' ? areaErrorStyleOf(pathOfPattern(pattern)) : route.errorStyle;
  if (style !== 'simple') options.errorStyle = style;
  if (route.bodyLimit !== undefined && route.bodyLimit !== DEFAULT_BODY_LIMIT)
    options.bodyLimit = route.bodyLimit;
  if (route.timeoutMs !== undefined) options.timeoutMs = route.timeoutMs;
  if (route.crossOrigin !== undefined) {
    options.public = true;
    if (route.crossOrigin !== true) options.corsAllowHeaders = route.crossOrigin.allowHeaders;
  }
  return options;
}

function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}

function methodRank(method: string): number {
  const i = METHOD_ORDER.indexOf(method);
  return i === -1 ? METHOD_ORDER.length : i;
}

interface Row {
  service: ServiceName;
  pattern: string;
  methods: Set<string>;
  options: RouteOptions;
}

/**
 * The table's rows for the services' routes, grouped by service in the order given, then by pattern.
 * Throws when the overlay names a route no service registers, or when two rows would serve the same
 * method of the same pattern.
 */
export function routeRows(
  services: readonly ServiceRoutes[],
  overlay: Readonly<Record<string, OverlayRule>> = routeOverlay,
): RouteRow[] {
  const unused = new Set(Object.keys(overlay));
  const rows = new Map<string, Row>();
  for (const { service, routes } of services) {
    if (!isServiceName(service))
      throw new Error(`"${service}" is no service the gateway knows (SERVICE_NAMES)`);
    const ruleOf = (route: RegisteredRoute): OverlayRule | undefined => {
      const key = `${service} ${route.method} ${route.url}`;
      if (!Object.hasOwn(overlay, key)) return undefined;
      unused.delete(key);
      return overlay[key];
    };
    const rules = routes.map(ruleOf);
    const everyMethod = new Set(routes.filter((_, i) => rules[i] === 'every-method').map((r) => r.url));
    const withGet = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
    routes.forEach((route, i) => {
      const rule = rules[i];
      if (rule === 'site-hosts-only' || PROBE_PATHS.has(route.url)) return;
      if (rule !== 'every-method') {
        if (everyMethod.has(route.url) || route.method === 'OPTIONS') return;
        if (route.method === 'HEAD' && withGet.has(route.url)) return;
      }
      const pattern = gatewayPattern(route.url, route.digitParams);
      const options = optionsOf(route, pattern);
      const key = `${service} ${pattern} ${JSON.stringify(options)}`;
      const row = rows.get(key) ?? { service, pattern, methods: new Set<string>(), options };
      row.methods.add(rule === 'every-method' ? '*' : route.method);
      rows.set(key, row);
    });
  }
  if (unused.size > 0) {
    throw new Error(
      `gateway/src/route-overlay.ts names routes no service registers: ${[...unused].join(', ')}`,
    );
  }
  const list = [...rows.values()];
  checkNoTwoRowsServeOneEndpoint(list);
  const order = new Map(services.map((s, i) => [s.service, i]));
  list.sort(
    (a, b) =>
      order.get(a.service)! - order.get(b.service)! ||
      (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0) ||
      Math.min(...[...a.methods].map(methodRank)) - Math.min(...[...b.methods].map(methodRank)),
  );
  return list.map((row) => {
    const methods = [...row.methods].sort((a, b) => methodRank(a) - methodRank(b)).join(' ');
    return Object.keys(row.options).length === 0
      ? ([methods, row.pattern, row.service] as const)
      : ([methods, row.pattern, row.service, row.options] as const);
  });
}

/** The methods a row answers, for comparing rows: a GET row answers HEAD too; null is any method. */
function answered(methods: ReadonlySet<string>): ReadonlySet<string> | null {
  if (methods.has('*')) return null;
  return methods.has('GET') ? new Set([...methods, 'HEAD']) : methods;
}

/** A method both rows answer, if any. */
function sharedMethod(a: Row, b: Row): string | undefined {
  const [ma, mb] = [answered(a.methods), answered(b.methods)];
  if (ma === null) return [...b.methods][0];
  if (mb === null) return [...a.methods][0];
  return [...mb].find((m) => ma.has(m));
}

/**
 * Two rows answering one method of one path shape (parameter names aside) would leave the choice to
 * their order: two services registering one endpoint, or one registering it with different limits.
 */
function checkNoTwoRowsServeOneEndpoint(rows: readonly Row[]): void {
  const byShape = new Map<string, Row[]>();
  for (const row of rows) {
    const shape = row.pattern.replace(/\{[a-z_]+/g, '{');
    byShape.set(shape, [...(byShape.get(shape) ?? []), row]);
  }
  for (const group of byShape.values()) {
    group.forEach((a, i) => {
      for (const b of group.slice(i + 1)) {
        const method = sharedMethod(a, b);
        if (method !== undefined)
          throw new Error(
            `${method} ${b.pattern} would be served by two rows: ${a.service}'s and ${b.service}'s`,
          );
      }
    });
  }
}

// --- the file --------------------------------------------------------------------------------------

const KiB = 1024;
const MiB = 1024 * KiB;

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function bytes(n: number): string {
  if (n % MiB === 0) return `${n / MiB} * MiB`;
  if (n % KiB === 0) return `${n / KiB} * KiB`;
  return String(n);
}

/** `60000` → `60_000`, as the repository writes such numbers. */
function millis(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, '_');
}

function optionsText(options: RouteOptions): string {
  const parts: string[] = [];
  if (options.errorStyle !== undefined) parts.push(`errorStyle: ${quote(options.errorStyle)}`);
  if (options.bodyLimit !== undefined) parts.push(`bodyLimit: ${bytes(options.bodyLimit)}`);
  if (options.timeoutMs !== undefined) parts.push(`timeoutMs: ${millis(options.timeoutMs)}`);
  if (options.public) parts.push('public: true');
  if (options.corsAllowHeaders !== undefined)
    parts.push(`corsAllowHeaders: ${quote(options.corsAllowHeaders)}`);
  return `{ ${parts.join(', ')} }`;
}

/** The text of routes.generated.ts for these rows. */
export function renderRouteTable(rows: readonly RouteRow[]): string {
  const methodsWidth = Math.max(...rows.map(([m]) => quote(m).length + 1));
  const patternWidth = Math.max(...rows.map(([, p]) => quote(p).length + 1));
  const lines: string[] = [];
  let service: string | undefined;
  for (const [methods, pattern, name, options] of rows) {
    if (name !== service) {
      if (service !== undefined) lines.push('');
      lines.push(`  // ${name}`);
      service = name;
    }
    const cells = [
      `${quote(methods)},`.padEnd(methodsWidth),
      `${quote(pattern)},`.padEnd(patternWidth),
      options === undefined ? quote(name) : `${quote(name)}, ${optionsText(options)}`,
    ];
    lines.push(`  [${cells.join(' ')}],`);
  }
  const body = lines.join('\n');
  const units = [
    ...(/\bKiB\b/.test(body) ? ['const KiB = 1024;'] : []),
    ...(/\bMiB\b/.test(body) ? ['const MiB = 1024 * 1024;'] : []),
  ];
  return [
    `// Generated by \`${GENERATE_ROUTES_COMMAND}\` (\`npm run build\` runs it) from the routes the`,
    '// services register, with what each route declares about itself: do not edit. How a route becomes a',
    "// row: route-table-generator.ts; the gateway's own policy on particular routes: route-overlay.ts.",
    "import type { RouteRow } from './route-entry.js';",
    '',
    ...(units.length > 0 ? [...units, ''] : []),
    '// prettier-ignore',
    'export const generatedRouteRows: readonly RouteRow[] = [',
    body,
    '];',
    '',
  ].join('\n');
}

/** The text of routes.generated.ts for the services' routes. */
export function generateRouteTable(
  services: readonly ServiceRoutes[],
  overlay: Readonly<Record<string, OverlayRule>> = routeOverlay,
): string {
  return renderRouteTable(routeRows(services, overlay));
}
