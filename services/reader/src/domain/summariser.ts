// The optional recap summariser: an OpenAI-compatible chat-completions endpoint the operator configured
// (READER_LLM_URL, READER_LLM_MODEL, READER_LLM_API_KEY). Off by default. It only rewrites the lead
// text of recap items; every word it returns is escaped like any other text, and any failure falls
// back to the extractive recap (the caller's job).
import { type Logger } from '@murmur/core';
import { FETCH_LIMITS, type SafeFetcher } from '@murmur/fetch';
import type { ReaderConfig } from '../config.js';

export interface SummaryRequest {
  id: number;
  title: string;
  text: string;
}

export interface Summariser {
  /** A one- or two-sentence summary per entry id; entries it has nothing for are left out. */
  summarise(items: SummaryRequest[]): Promise<Map<number, string>>;
}

/** Entries sent in one recap (the rest keep their lead sentences), and text per entry. */
export const MAX_SUMMARISED = 50;
const MAX_TEXT = 2000;
const MAX_SUMMARY = 400;
/** Leaves room in the 60 s a recap build may take for the extractive fallback. */
const TIMEOUT_MS = 45_000;

const INSTRUCTIONS =
  'You summarise articles for a reading recap. For each article in the JSON array you are given, ' +
  'write a neutral summary of one or two sentences in the language of the article. Reply with JSON ' +
  'only: {"summaries":[{"id":<id>,"summary":"<text>"}]}. Plain text, no markup.';

function contentOf(reply: unknown): string {
  const choices = (reply as { choices?: Array<{ message?: { content?: unknown } }> } | null)?.choices;
  const content = choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('the summariser reply has no message content');
  return withoutCodeFence(content);
}

/**
 * A reply without the Markdown code fence models wrap JSON in. The closing fence is found from the end
 * with trimEnd, not with /\s*```\s*$/, which rescans a long run of whitespace from each of its characters.
 */
export function withoutCodeFence(content: string): string {
  const text = content.replace(/^\s*```(?:json)?\s*/i, '');
  const end = text.trimEnd();
  return end.endsWith('```') ? end.slice(0, -3).trimEnd() : text;
}

export function createLlmSummariser(
  config: Pick<ReaderConfig, 'READER_LLM_URL' | 'READER_LLM_MODEL' | 'READER_LLM_API_KEY'>,
  fetcher: SafeFetcher,
  logger: Logger,
): Summariser | null {
  const url = config.READER_LLM_URL;
  if (!url) return null;
  return {
    async summarise(items) {
      const batch = items.slice(0, MAX_SUMMARISED).map((i) => ({
        id: i.id,
        title: i.title,
        text: i.text.slice(0, MAX_TEXT),
      }));
      if (batch.length === 0) return new Map();
      const res = await fetcher.fetch(url, {
        ...FETCH_LIMITS.llm,
        timeoutMs: TIMEOUT_MS,
        method: 'POST',
        accept: 'application/json',
        headers: { 'content-type': 'application/json' },
        operatorBearerToken: config.READER_LLM_API_KEY,
        body: JSON.stringify({
          model: config.READER_LLM_MODEL,
          temperature: 0,
          messages: [
            { role: 'system', content: INSTRUCTIONS },
            { role: 'user', content: JSON.stringify(batch) },
          ],
        }),
      });
      if (res.status !== 200) throw new Error(`the summariser answered HTTP ${res.status}`);
      const parsed = JSON.parse(contentOf(JSON.parse(res.body.toString('utf8')))) as {
        summaries?: Array<{ id?: unknown; summary?: unknown }>;
      };
      const wanted = new Set(batch.map((i) => i.id));
      const out = new Map<number, string>();
      for (const s of parsed.summaries ?? []) {
        if (typeof s.id !== 'number' || !wanted.has(s.id) || typeof s.summary !== 'string') continue;
        const text = s.summary.replace(/\s+/g, ' ').trim().slice(0, MAX_SUMMARY);
        if (text !== '') out.set(s.id, text);
      }
      logger.debug({ requested: batch.length, summarised: out.size }, 'recap summarised');
      return out;
    },
  };
}
