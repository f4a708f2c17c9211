// Compiles a route table's path patterns and finds the row that serves a request, most specific first.
//
// Pattern syntax: literal text; `{name}` one non-empty path segment, possibly with literal text around
// it in the same segment (`{username}.json`); `{name:int}` one segment of decimal digits; a trailing
// `/*` matches the path before it and everything below it (`/sites/{username}/*`).
//
// Specificity: a row with more literal characters wins; at equal length an exact pattern beats a
// trailing `/*`, then table order decides. So `/feeds/v2/imports.json` beats `/feeds/{username}.json`
// whatever order the rows are written in, and the table can be grouped by service.

import { BoundedMemo } from '@murmur/core';

export interface MatcherRow {
  pattern: string;
  /** Upper-case method names; `*` allows every method. A GET row also answers HEAD. */
  methods: readonly string[];
}

interface Compiled<R extends MatcherRow> {
  row: R;
  regex: RegExp;
  methods: ReadonlySet<string> | null;
  literalLength: number;
  prefix: boolean;
  order: number;
}

const PARAM = /\{([a-z_]+)(?::(int))?\}/g;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Turns a table pattern into an anchored regular expression over the raw request path. */
export function compilePattern(pattern: string): RegExp {
  const prefix = pattern.endsWith('/*');
  const body = prefix ? pattern.slice(0, -2) : pattern;
  if (!body.startsWith('/')) throw new Error(`route pattern ${pattern} must start with /`);
  let source = '';
  let last = 0;
  for (const m of body.matchAll(PARAM)) {
    source += escapeRegex(body.slice(last, m.index));
    source += m[2] === 'int' ? '[0-9]+' : '[^/]+';
    last = m.index + m[0].length;
  }
  if (/[{}*]/.test(body.replace(PARAM, ''))) {
    throw new Error(`route pattern ${pattern} has a malformed parameter or wildcard`);
  }
  source += escapeRegex(body.slice(last));
  return new RegExp(`^${source}${prefix ? '(?:/.*)?' : ''}$`);
}

function literalLength(pattern: string): number {
  return pattern.replace(/\/\*$/, '').replace(PARAM, '').length;
}

/** `/feeds/v2/x` → `feeds`; `/{username}/` → `{username}`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** How many paths a method's memo keeps, and the longest path it keeps (RouteMatcher.match). */
const MEMO_PATHS = 1024;
const MEMO_PATH_LENGTH = 256;
/**
 * The methods whose answers are remembered. A fixed list: the method asked about can be any string a
 * client writes in a preflight's Access-Control-Request-Method, and each would otherwise get a memo.
 */
const MEMO_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class RouteMatcher<R extends MatcherRow> {
  // Rows grouped by literal first segment, most specific first: a lookup tests only the few rows that
  // could match. Rows whose first segment is a parameter (`/{username}/`) are tried after the group.
  private readonly byFirstSegment = new Map<string, Compiled<R>[]>();
  private readonly parameterFirst: Compiled<R>[] = [];

  constructor(rows: readonly R[]) {
    const compiled = rows.map((row, order) => ({
      row,
      regex: compilePattern(row.pattern),
      methods: row.methods.includes('*') ? null : new Set(row.methods),
      literalLength: literalLength(row.pattern),
      prefix: row.pattern.endsWith('/*'),
      order,
    }));
    compiled.sort(
      (a, b) => b.literalLength - a.literalLength || Number(a.prefix) - Number(b.prefix) || a.order - b.order,
    );
    for (const c of compiled) {
      const key = firstSegment(c.row.pattern);
      if (key.includes('{')) {
        this.parameterFirst.push(c);
        continue;
      }
      const group = this.byFirstSegment.get(key) ?? [];
      group.push(c);
      this.byFirstSegment.set(key, group);
    }
  }

  // What recent lookups found, by method then path: most traffic asks for a few paths again and again,
  // and a hit costs one map lookup where a miss tests a group's patterns. Bounded three ways — only the
  // MEMO_METHODS, paths up to MEMO_PATH_LENGTH, and a method's map emptied when it reaches MEMO_PATHS —
  // so a client inventing paths or methods costs the process at most MEMO_PATHS short strings a method.
  private readonly memo = new Map<string, BoundedMemo<string, R | null>>(
    MEMO_METHODS.map((method) => [method, new BoundedMemo(MEMO_PATHS)]),
  );

  /** The most specific row whose pattern matches `pathname` and whose methods include `method`. */
  match(method: string, pathname: string): R | null {
    const byPath = this.memo.get(method);
    const known = byPath?.get(pathname);
    if (known !== undefined) return known;
    const m = method.toUpperCase();
    const group = this.byFirstSegment.get(firstSegment(pathname));
    const found = (group && first(group, m, pathname)) ?? first(this.parameterFirst, m, pathname);
    if (byPath && pathname.length <= MEMO_PATH_LENGTH) byPath.set(pathname, found);
    return found;
  }
}

function allows(methods: ReadonlySet<string> | null, method: string): boolean {
  return methods === null || methods.has(method) || (method === 'HEAD' && methods.has('GET'));
}

function first<R extends MatcherRow>(group: readonly Compiled<R>[], method: string, path: string): R | null {
  for (const c of group) {
    if (allows(c.methods, method) && c.regex.test(path)) return c.row;
  }
  return null;
}
