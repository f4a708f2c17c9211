// Reading the tags of a fetched HTML page without ever holding the event loop (docs/security.md,
// "Parsing fetched documents"): feed discovery, icons, webmention links and endpoints, page titles.
// htmlparser2's Tokenizer (the one the Parser and sanitize-html use) is driven directly: there is no
// element stack, so nesting costs nothing (the Parser's stack costs depth² — 100,000 nested <div> held
// the loop 363–398 ms, issue 37), and the tokenizer is paused every `sliceChars` characters so that
// other work runs between slices. A caller that has what it needs stops the scan; `maxChars` bounds
// how much of a page is read at all.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Tokenizer } from 'htmlparser2';

/** Characters tokenized per turn of the event loop: a few milliseconds of the densest markup. */
export const SCAN_SLICE_CHARS = 16 * 1024;

export interface HtmlScanHandlers {
  /**
   * An opening tag: its name and attribute names lower case, attribute values with entities decoded
   * (the first of a repeated attribute, `''` for one without a value). Return `false` to stop.
   */
  onopentag?(name: string, attributes: Record<string, string>): boolean | void;
  /** Text (entities decoded), in pieces; the raw text of `<script>`, `<style>`, `<title>` too. */
  ontext?(text: string): boolean | void;
  /** A closing tag, as written (no implied ones). Return `false` to stop. */
  onclosetag?(name: string): boolean | void;
}

export interface HtmlScanOptions {
  /** Read at most this many characters of `html` (the rest is as if absent). */
  maxChars?: number;
  /** Characters per turn of the event loop (default SCAN_SLICE_CHARS). */
  sliceChars?: number;
}

/**
 * Calls the handlers for the tags and text of `html`, in document order, yielding to the event loop
 * between slices. Resolves `true` when the scan reached the end (of `html` or of `maxChars`), `false`
 * when a handler stopped it.
 */
export async function scanHtml(
  html: string,
  handlers: HtmlScanHandlers,
  options: HtmlScanOptions = {},
): Promise<boolean> {
  const text =
    options.maxChars !== undefined && html.length > options.maxChars ? html.slice(0, options.maxChars) : html;
  const slice = Math.max(1024, options.sliceChars ?? SCAN_SLICE_CHARS);
  let pauseAt = slice;
  let stopped = false;
  let tagName = '';
  let attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  let attributeName = '';
  let attributeValue = '';

  const stop = () => {
    stopped = true;
    tokenizer.pause();
  };
  /** Pauses once the tokenizer is past this turn's slice. */
  const mark = (index: number) => {
    if (index >= pauseAt) {
      pauseAt = index + slice;
      tokenizer.pause();
    }
  };
  const open = (end: number) => {
    if (handlers.onopentag?.(tagName, attributes) === false) stop();
    else mark(end);
  };
  const emitText = (value: string, end: number) => {
    if (handlers.ontext?.(value) === false) stop();
    else mark(end);
  };

  const tokenizer: Tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      onopentagname(start, end) {
        tagName = text.slice(start, end).toLowerCase();
        attributes = Object.create(null) as Record<string, string>;
      },
      onattribname(start, end) {
        attributeName = text.slice(start, end).toLowerCase();
        attributeValue = '';
      },
      onattribdata(start, end) {
        attributeValue += text.slice(start, end);
      },
      onattribentity(codepoint) {
        attributeValue += String.fromCodePoint(codepoint);
      },
      onattribend(_quote, end) {
        if (!(attributeName in attributes)) attributes[attributeName] = attributeValue;
        attributeValue = '';
        mark(end);
      },
      onopentagend: open,
      onselfclosingtag: open,
      onclosetag(start, end) {
        if (handlers.onclosetag?.(text.slice(start, end).toLowerCase()) === false) stop();
        else mark(end);
      },
      ontext(start, end) {
        emitText(text.slice(start, end), end);
      },
      ontextentity(codepoint, end) {
        emitText(String.fromCodePoint(codepoint), end);
      },
      oncdata: (_start, end) => mark(end),
      oncomment: (_start, end) => mark(end),
      ondeclaration: (_start, end) => mark(end),
      onprocessinginstruction: (_start, end) => mark(end),
      onend() {},
    },
  );

  tokenizer.write(text);
  // Paused (a slice is done, or a handler stopped it) or through the whole text.
  while (!tokenizer.running && !stopped) {
    await nextTurn();
    tokenizer.resume();
  }
  if (stopped) return false;
  tokenizer.end();
  return true;
}
