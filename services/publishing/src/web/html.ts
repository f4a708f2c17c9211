// A tiny auto-escaping template for our own pages: every interpolated value is escaped unless it is
// already Html (a fragment we built, or a body sanitised when it was stored).
import { escapeHtml } from '@murmur/http';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Trusted markup: only for HTML that was sanitised when stored. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** Headers of every site page (no scripts, no framing; pages show remote images and media, so those are allowed). */
export const SITE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; img-src http: https: data:; media-src http: https:; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'cache-control': 'public, max-age=60',
};
