// What the feeds service's parser thread runs (libs/fetch ParserThread, docs/security.md "Parsing
// fetched documents"): Readability over a linkedom DOM of a whole page, then the platform sanitiser —
// seconds of CPU for a large or hostile page, so never on the event loop. Pure: plain data in and out.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { capHtmlNesting, sanitizeHtmlFragment } from '@murmur/fetch';
import { clip } from './clip.js';

export interface ArticlePage {
  /** The page, decoded. */
  html: string;
  /** Its final URL (after redirects): the base of relative links. */
  url: string;
}

export interface Article {
  url: string;
  title: string;
  contentHtml: string;
  excerpt: string;
}

/** The readable article of a page, sanitised; null when there is none. */
export function extractArticle(page: ArticlePage): Article | null {
  // Deep nesting costs a DOM (and Readability's walks over it) far more than its size: capped first.
  const { document } = parseHTML(capHtmlNesting(page.html));
  const parsed = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  if (!parsed || !parsed.content) return null;
  const contentHtml = sanitizeHtmlFragment(parsed.content, { baseUrl: page.url });
  if (contentHtml.trim() === '') return null;
  return {
    url: page.url,
    title: clip(parsed.title ?? '', 300),
    contentHtml,
    excerpt: clip(parsed.excerpt ?? '', 500),
  };
}
