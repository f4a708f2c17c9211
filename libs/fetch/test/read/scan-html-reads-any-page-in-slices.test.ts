// scanHtml (libs/fetch/src/read/scan-html.ts): the tags and text of a page as htmlparser2's Parser
// reads them, in document order — but with no element stack (nesting costs nothing) and a turn of the
// event loop every slice, so that no page, however large or deep, holds the loop; a handler can stop
// it, and maxChars bounds what is read.
import { describe, expect, it } from '@jest/globals';
import { Parser } from 'htmlparser2';
import { scanHtml, SCAN_SLICE_CHARS } from '../../src/index.js';

type Event = [string, ...unknown[]];

async function scanned(html: string, options = {}): Promise<Event[]> {
  const events: Event[] = [];
  await scanHtml(
    html,
    {
      onopentag: (name, attrs) => void events.push(['open', name, { ...attrs }]),
      ontext: (text) => void events.push(['text', text]),
      onclosetag: (name) => void events.push(['close', name]),
    },
    options,
  );
  return merged(events);
}

/** What htmlparser2's Parser reports for the same page (its implied closes left out). */
function parsed(html: string): Event[] {
  const events: Event[] = [];
  const parser = new Parser(
    {
      onopentag: (name, attrs) => void events.push(['open', name, { ...attrs }]),
      ontext: (text) => void events.push(['text', text]),
      onclosetag: (name, implied) => void (implied ? undefined : events.push(['close', name])),
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return merged(events);
}

/** Adjacent text pieces joined (both report text in pieces of their own choosing). */
function merged(events: Event[]): Event[] {
  const out: Event[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e[0] === 'text' && last?.[0] === 'text') last[1] = String(last[1]) + String(e[1]);
    else out.push([...e]);
  }
  return out;
}

/** Turns of the event loop that ran while `work` was in progress. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  await work();
  running = false;
  return turns;
}

const PAGE =
  '<!DOCTYPE html><html lang=en><head><TITLE>A &amp; B</TITLE><base href="/x/">' +
  '<link rel="alternate stylesheet" HREF="/feed.xml" type=application/rss+xml>' +
  '<script>if (a < b) document.write("<a href=no>")</script><style>a{}</style></head>' +
  '<body class=x><!-- <a href="/in-comment"> --><p>one &lt;two&gt; <a href="/a?x=1&amp;y=2" href="/second">three</a>' +
  '<img src=/i.png alt=""><br/><svg><path d="M0"/></svg><textarea><b>raw</b></textarea>' +
  '<a href=\'single\' data-x="&#x41;&#66;">x</a></body></html>';

describe('what it reads', () => {
  it('the tags, attributes and text htmlparser2 reads, in the same order', async () => {
    expect(await scanned(PAGE)).toEqual(parsed(PAGE));
  });

  it('the same when read in the smallest slices', async () => {
    expect(await scanned(PAGE, { sliceChars: 1 })).toEqual(parsed(PAGE));
  });

  it('a handler returning false stops it; it resolves false', async () => {
    const seen: string[] = [];
    const complete = await scanHtml('<a><b><c><d>', {
      onopentag: (name) => {
        seen.push(name);
        return name !== 'b';
      },
    });
    expect(complete).toBe(false);
    expect(seen).toEqual(['a', 'b']);
  });

  it('maxChars: nothing past it is read', async () => {
    const html = `<a href=1>${'x'.repeat(5000)}<a href=2>`;
    const hrefs: string[] = [];
    expect(await scanHtml(html, { onopentag: (_n, a) => void hrefs.push(a.href!) }, { maxChars: 4000 })).toBe(
      true,
    );
    expect(hrefs).toEqual(['1']);
  });
});

describe('how it reads', () => {
  it('a page of 100,000 nested <div> (1.1 MB) is read in slices: the event loop turns between them', async () => {
    const deep = '<div>'.repeat(100_000) + '<a href=/end>' + '</div>'.repeat(100_000);
    let found = '';
    const turns = await turnsDuring(() =>
      scanHtml(deep, { onopentag: (name, attrs) => void (name === 'a' ? (found = attrs.href!) : undefined) }),
    );
    expect(found).toBe('/end');
    expect(turns).toBeGreaterThanOrEqual(Math.floor(deep.length / SCAN_SLICE_CHARS) - 1);
  });

  it('a 4 MB attribute and a 4 MB text are read, the loop turning at least once a slice after them', async () => {
    const page = `<a title="${'a'.repeat(4 << 20)}" href=/x>${'t'.repeat(4 << 20)}</a><b>`;
    const names: string[] = [];
    await scanHtml(page, { onopentag: (name) => void names.push(name) });
    expect(names).toEqual(['a', 'b']);
  });
});
