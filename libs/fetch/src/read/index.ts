// Reading fetched (or uploaded) documents without holding the event loop (docs/security.md, "Parsing
// fetched documents"): a sliced tag scan for what needs only tags, a worker thread with a time budget
// for what needs a whole tree.
export { scanHtml, SCAN_SLICE_CHARS, type HtmlScanHandlers, type HtmlScanOptions } from './scan-html.js';
export {
  ParseBusyError,
  ParseError,
  ParseFailedError,
  ParserThread,
  ParseTimeoutError,
  taskModuleUrl,
  type ParserThreadOptions,
} from './parser-thread.js';
