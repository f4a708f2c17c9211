// Where the reader parses fetched bodies and derives entries: on the event loop (the default), or on a
// worker thread of its own (READER_PARSE_THREAD=true). Parsing and sanitising are pure and are a
// quarter of a polled feed's CPU; on the thread they leave the event loop to requests and the store
// and can use another core. On the 2-core machines measured (bench/reader/README.md) the thread polled
// no faster — the server already used more than one core, the store's fsyncs and the benchmark's
// feed hosts the rest — and kept 40 MiB more resident, so it is an operator's choice for machines
// with cores to spare (issue 38). A thread that is busy (its queue full) is not waited for: the work
// is done here instead. A thread that fails a task (its time or memory exceeded) makes the document
// unusable, recorded on the feed as any refusal is (FeedParseError).
import { ParseBusyError, ParseError, ParserThread, taskModuleUrl } from '@murmur/fetch';
import { deriveFields, type EntryFields, type ItemSource } from './entries.js';
import { parseFetched, type Fetched } from './parse.js';
import { fromWireFetched, toWireItem, type WireFetched, type WireSource } from './parse-tasks.js';
import { FeedParseError } from './types.js';

export type ParseBody = (body: Buffer, contentType: string | undefined, url: string) => Promise<Fetched>;

export interface FeedParsing {
  /** parseFetched: throws FeedParseError for a body that claims to be a feed but cannot be used. */
  parse: ParseBody;
  /** deriveFields of each source, in order. */
  derive(sources: readonly ItemSource[]): Promise<EntryFields[]>;
  close(): Promise<void>;
}

/** On the event loop (READER_PARSE_THREAD=false, the default). */
export const parsingHere: FeedParsing = {
  parse: parseFetched,
  derive: (sources) => Promise.resolve(sources.map(deriveFields)),
  close: () => Promise.resolve(),
};

/** Time one document's parse or one fetch's items may take on the thread. */
export const PARSE_THREAD_TIMEOUT_MS = 60_000;

export class ThreadParsing implements FeedParsing {
  private readonly thread: ParserThread;

  constructor(options: { timeoutMs?: number; maxHeapMb?: number } = {}) {
    this.thread = new ParserThread({
      module: taskModuleUrl(import.meta.url, 1, 'feeds/parse-tasks.js'),
      timeoutMs: options.timeoutMs ?? PARSE_THREAD_TIMEOUT_MS,
      // A 15 MiB feed (FETCH_LIMITS.feed) parses into a few times that.
      maxHeapMb: options.maxHeapMb ?? 512,
      // Many small documents: V8's default young generation kept 30 MiB more resident (bench/reader).
      maxYoungMb: 8,
    });
  }

  readonly parse: ParseBody = async (body, contentType, url) => {
    let wire: WireFetched;
    try {
      wire = await this.thread.run<WireFetched>('parseBody', { body, contentType: contentType ?? null, url });
    } catch (err) {
      if (err instanceof ParseBusyError) return parseFetched(body, contentType, url);
      if (err instanceof ParseError) throw new FeedParseError(`the feed could not be parsed: ${err.message}`);
      throw err;
    }
    return fromWireFetched(wire);
  };

  async derive(sources: readonly ItemSource[]): Promise<EntryFields[]> {
    if (sources.length === 0) return [];
    const wire: WireSource[] = sources.map((s) => ({ ...s, item: toWireItem(s.item) }));
    try {
      return await this.thread.run<EntryFields[]>('deriveItems', { sources: wire });
    } catch (err) {
      if (err instanceof ParseBusyError) return sources.map(deriveFields);
      if (err instanceof ParseError) {
        throw new FeedParseError(`the feed's items could not be processed: ${err.message}`);
      }
      throw err;
    }
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
