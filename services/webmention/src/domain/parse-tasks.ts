// What the webmention service's parser thread runs (libs/fetch ParserThread, docs/security.md "Parsing
// fetched documents"): the microformats parse of a verified source, a whole-tree parse that can take
// seconds of CPU on a hostile page, so it never runs on the event loop. Pure: plain data in and out.
import { parseHtmlMention, type ParsedMention } from './parse.js';

export interface MentionSource {
  html: string;
  finalUrl: string;
  source: string;
  target: string;
  /** The page's title (from the link scan), used when it has no h-entry. */
  title: string;
}

export function parseMention(input: MentionSource): ParsedMention {
  return parseHtmlMention(input.html, input.finalUrl, input.source, input.target, input.title);
}
