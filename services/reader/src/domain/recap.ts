// The recap of chosen entries (docs/api/reader.md "Recap"): grouped by feed, each entry's title linked to its
// URL, its first sentences and reading time. Deterministic and extractive; an optional summariser
// may replace the lead sentences. Built from sanitised text only, every value HTML-escaped.
import { escapeHtml } from '@murmur/http';
import { htmlToText, truncateText } from '../feeds/html.js';
import type { EntryDoc } from '../store/index.js';

export const WORDS_PER_MINUTE = 230;
const LEAD_MAX = 280;

/** [light, dark] accent colours; a feed keeps its colour across recaps. */
const PALETTE: ReadonlyArray<readonly [string, string]> = [
  ['#1f6feb', '#79c0ff'],
  ['#8250df', '#d2a8ff'],
  ['#bf3989', '#ff9bce'],
  ['#cf222e', '#ff8182'],
  ['#bc4c00', '#ffa657'],
  ['#9a6700', '#e3b341'],
  ['#1a7f37', '#56d364'],
  ['#0969da', '#a5d6ff'],
];

export interface RecapItem {
  id: number;
  title: string;
  url: string | null;
  lead: string;
  minutes: number;
}

export interface RecapGroup {
  feedId: number;
  feedTitle: string;
  items: RecapItem[];
}

/** The first sentences of `text`, within LEAD_MAX characters. */
export function leadSentences(text: string): string {
  const sentences = text.match(/[^.!?]+[.!?]+(?:["'”’)\]]+)?|[^.!?]+$/g) ?? [];
  let lead = '';
  for (const sentence of sentences.map((s) => s.trim()).filter((s) => s !== '')) {
    const next = lead === '' ? sentence : `${lead} ${sentence}`;
    if (next.length > LEAD_MAX) break;
    lead = next;
    if (lead.length > LEAD_MAX / 2) break;
  }
  return lead === '' ? truncateText(text, LEAD_MAX) : lead;
}

export function readingMinutes(text: string): number {
  const words = text === '' ? 0 : text.split(/\s+/).length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/** Groups entries (newest first) by feed, groups ordered by their newest entry. */
export function groupRecap(entries: EntryDoc[], feedTitle: (feedId: number) => string): RecapGroup[] {
  const sorted = [...entries].sort((a, b) => b.createdAt - a.createdAt || b._id - a._id);
  const groups = new Map<number, RecapGroup>();
  for (const entry of sorted) {
    const text = entry.content ? htmlToText(entry.content) : entry.summary;
    let group = groups.get(entry.feedId);
    if (!group) {
      group = { feedId: entry.feedId, feedTitle: feedTitle(entry.feedId), items: [] };
      groups.set(entry.feedId, group);
    }
    group.items.push({
      id: entry._id,
      title: entry.title ?? 'Untitled',
      url: entry.url,
      lead: leadSentences(text),
      minutes: readingMinutes(text),
    });
  }
  return [...groups.values()];
}

/** One `<div class="reading-recap">` per feed. `summaries` (by entry id) replace the lead sentences. */
export function renderRecap(groups: RecapGroup[], summaries?: ReadonlyMap<number, string>): string {
  return groups
    .map((group) => {
      const [light, dark] = PALETTE[group.feedId % PALETTE.length]!;
      const items = group.items
        .map((item) => {
          const title = escapeHtml(item.title);
          const heading = item.url ? `<a href="${escapeHtml(item.url)}">${title}</a>` : title;
          const lead = summaries?.get(item.id) ?? item.lead;
          return (
            `<li><h3>${heading}</h3>` +
            (lead === '' ? '' : `<p>${escapeHtml(lead)}</p>`) +
            `<span class="reading-time">${item.minutes} min read</span></li>`
          );
        })
        .join('');
      return (
        `<div class="reading-recap" data-color-light="${light}" data-color-dark="${dark}">` +
        `<h2>${escapeHtml(group.feedTitle)}</h2><ul>${items}</ul></div>`
      );
    })
    .join('\n');
}

/** Plain-text form of a recap (the weekly email's text part). */
export function recapText(groups: RecapGroup[], summaries?: ReadonlyMap<number, string>): string {
  return groups
    .map((group) => {
      const items = group.items.map((item) => {
        const lead = summaries?.get(item.id) ?? item.lead;
        return `- ${item.title}${item.url ? ` <${item.url}>` : ''}\n  ${lead} (${item.minutes} min read)`;
      });
      return `${group.feedTitle}\n${items.join('\n')}`;
    })
    .join('\n\n');
}

export const PREPARING_HTML = '<div class="reading-recap-preparing"><p>Preparing your recap…</p></div>';

/** What identity shows as the account's `is_using_ai`: whether recaps use the configured summariser. */
export function recapCapabilities(ctx: { summariser: unknown }): { usingAi: boolean } {
  return { usingAi: ctx.summariser !== null };
}
