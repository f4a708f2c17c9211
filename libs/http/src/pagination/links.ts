// Feedbin-style pagination links (docs/api/reader.md, pagination). NetNewsWire splits the header on
// `,` and then on `"; "`, so the separators are exact and no raw comma may appear inside a URL.

export interface PageCount {
  page: number;
  perPage: number;
  /** Records matching the query across all pages. */
  total: number;
}

/** A request's query: raw string, URLSearchParams, or a parsed object (arrays repeat the name). */
export type QueryInput =
  | string
  | URLSearchParams
  | Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;

export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/**
 * The value for both `Link` and `Links`, or undefined when everything fits on one page. URLs are
 * `{baseUrl}{path}` with every parameter of `query` kept and `page` replaced; callers rewrite values
 * that need a canonical form (the reader's `since`) before passing the query.
 */
export function linkHeader(
  baseUrl: string,
  path: string,
  query: QueryInput,
  count: PageCount,
): string | undefined {
  const last = lastPage(count.total, count.perPage);
  if (last <= 1) return undefined;
  const params = toSearchParams(query);
  const pageUrl = (page: number): string => {
    params.set('page', String(page));
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}${path}`);
    url.search = params.toString();
    return url.href.replace(/,/g, '%2C');
  };
  const links: string[] = [];
  if (count.page > 1) {
    links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(Math.min(count.page - 1, last))}>; rel="prev"`);
  }
  if (count.page < last) {
    links.push(`<${pageUrl(count.page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`);
  }
  return links.join(', ');
}

function toSearchParams(query: QueryInput): URLSearchParams {
  if (typeof query === 'string') return new URLSearchParams(query.replace(/^\?/, ''));
  if (query instanceof URLSearchParams) return new URLSearchParams(query);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) params.append(name, String(v));
  }
  return params;
}
