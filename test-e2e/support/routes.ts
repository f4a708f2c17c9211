// Every row of the gateway's route table as concrete requests, for suites that must cover every routed
// endpoint (test-e2e/security). The samples of gateway/test/route-samples.ts are reused: each row gets
// the samples the gateway routes to it; a row without one gets a request made from its pattern. When
// the table's shape changes, this adapter is the one place to adjust.
import { resolveRoute, routeTable, type RouteEntry } from '@murmur/gateway';
import { pathOfPattern, samples, type Sample } from '../../gateway/test/route-samples.js';

export interface RouteCase {
  /** The table row's pattern, e.g. `/feeds/v2/*`. */
  pattern: string;
  row: RouteEntry;
  method: Sample['method'];
  path: string;
  body?: string;
  contentType?: string;
}

export function allRoutes(): RouteCase[] {
  const out: RouteCase[] = [];
  for (const row of routeTable) {
    const mine = samples.filter((s) => resolveRoute(s.method, s.path) === row);
    if (mine.length === 0) {
      const method = (row.methods?.[0] ?? 'GET') as Sample['method'];
      out.push({ pattern: row.pattern, row, method, path: pathOfPattern(row.pattern) });
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
