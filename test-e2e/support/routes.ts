// Every row of the gateway's route table as concrete requests, for suites that must cover every routed
// endpoint (test-e2e/security). The samples of gateway/test/route-samples.ts are reused: each row gets
// the samples the gateway routes to it; a row without one gets a request made from its pattern. When
// the table's shape changes, this adapter is the one place to adjust.
import { resolveRoute, routeTable, type RouteEntry } from '@murmur/gateway';
import { samples, type Sample } from '../../gateway/test/route-samples.js';

export interface RouteCase {
  /** The table row's pattern, e.g. `/feeds/v2/*`. */
  pattern: string;
  row: RouteEntry;
  method: Sample['method'];
  path: string;
  body?: string;
  contentType?: string;
}

/** A path for a row no sample reaches: `{int}` → 17, other parameters → ada, a trailing `/*` dropped. */
function pathFromPattern(pattern: string): string {
  const path = pattern
    .replace(/\/\*$/, '')
    .replace(/\{int\}/g, '17')
    .replace(/\{[a-z_]+\}/g, 'ada');
  return path === '' ? '/' : path;
}

export function allRoutes(): RouteCase[] {
  const out: RouteCase[] = [];
  for (const row of routeTable) {
    const mine = samples.filter((s) => resolveRoute(s.method, s.path) === row);
    if (mine.length === 0) {
      const method = (row.methods?.[0] ?? 'GET') as Sample['method'];
      out.push({ pattern: row.pattern, row, method, path: pathFromPattern(row.pattern) });
      continue;
    }
    for (const s of mine)
      out.push({
        pattern: row.pattern,
        row,
        method: s.method,
        path: s.path,
        body: s.body,
        contentType: s.contentType,
      });
  }
  return out;
}
