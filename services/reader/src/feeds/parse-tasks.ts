// What the reader's parser thread runs (libs/fetch ParserThread; feeds/parsing.ts decides when): a fetched
// body decoded and parsed, and items sanitised and summarised — pure work on plain data, the reader's
// largest share of CPU per polled feed after the store (issue 38). Answers travel as JSON, so dates go
// as milliseconds and a refusal as `{ kind: 'refused' }` with its message (a FeedParseError would
// arrive as a bare message).
import { deriveFields, type EntryFields, type ItemSource } from './entries.js';
import { parseFetched, type Fetched } from './parse.js';
import { FeedParseError, type ParsedFeed, type ParsedItem } from './types.js';

/** A ParsedItem as JSON carries it: `published` in milliseconds. */
export type WireItem = Omit<ParsedItem, 'published'> & { published: number | null };
export type WireFeed = Omit<ParsedFeed, 'items'> & { items: WireItem[] };
export type WireFetched =
  | { kind: 'feed'; feed: WireFeed }
  | { kind: 'html'; html: string }
  | { kind: 'other' }
  | { kind: 'refused'; message: string };
export type WireSource = Omit<ItemSource, 'item'> & { item: WireItem };

export function toWireItem(item: ParsedItem): WireItem {
  return { ...item, published: item.published ? item.published.getTime() : null };
}

export function fromWireItem(item: WireItem): ParsedItem {
  return { ...item, published: item.published === null ? null : new Date(item.published) };
}

function toWireFetched(fetched: Fetched): WireFetched {
  if (fetched.kind !== 'feed') return fetched;
  return { kind: 'feed', feed: { ...fetched.feed, items: fetched.feed.items.map(toWireItem) } };
}

export function fromWireFetched(wire: WireFetched): Fetched {
  if (wire.kind === 'refused') throw new FeedParseError(wire.message);
  if (wire.kind !== 'feed') return wire;
  return { kind: 'feed', feed: { ...wire.feed, items: wire.feed.items.map(fromWireItem) } };
}

export async function parseBody(input: {
  body: Uint8Array;
  contentType: string | null;
  url: string;
}): Promise<WireFetched> {
  const body = Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength);
  try {
    return toWireFetched(await parseFetched(body, input.contentType ?? undefined, input.url));
  } catch (err) {
    if (err instanceof FeedParseError) return { kind: 'refused', message: err.message };
    throw err;
  }
}

export function deriveItems(input: { sources: WireSource[] }): EntryFields[] {
  return input.sources.map((s) => deriveFields({ ...s, item: fromWireItem(s.item) }));
}
