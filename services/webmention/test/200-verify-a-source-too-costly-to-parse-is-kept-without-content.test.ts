// The microformats parse of a source runs in the service's parser thread within a time budget
// (MENTION_PARSE_TIMEOUT_MS; shortened here), never on the event loop (docs/security.md, "Parsing
// fetched documents"; issue 37): a source whose parse takes longer is still verified — it links the
// target — but kept as a plain mention by its host (titled with the page's title), and its reply
// content is not read. A source within the budget is parsed as usual. The link check reads any page in slices.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { ADA_POST, hEntry, startHarness, withSites, type Harness } from './harness.js';

describe('verification: a source costlier to parse than its budget', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mentionParseTimeoutMs: 300 });
    await withSites(h);
  });
  afterAll(() => h.stop());

  async function verified(path: string, html: string) {
    h.sources.html('carol.example', path, html);
    const source = h.sources.url('carol.example', path);
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    await h.waitForStatus(source, ADA_POST, ['verified'], 30_000);
    return eventually(async () => h.verified.filter((e) => e.data.source === source).at(-1), 10_000);
  }

  it('a megabyte of h-entries replying to the target → verified as a plain mention with the title', async () => {
    const reply = `<div class="u-in-reply-to h-cite"><a class="u-url" href="${ADA_POST}">Ada</a></div>
      <div class="e-content"><p>Nice!</p></div>`;
    const costly =
      '<!doctype html><html><head><title>Many entries</title></head><body>' +
      `<article class="h-entry">${reply}</article>` +
      '<div class="h-entry"><a class="u-url p-name" href="/a">x</a><span class="p-author h-card">y</span></div>\n'.repeat(
        10_000,
      ) +
      '</body></html>';
    const m = await verified('/costly', costly);
    expect(m.data.type).toBe('mention');
    expect(m.data.contentText).toBe('');
    expect(m.data.author).toEqual({
      name: `carol.example:${h.sources.port}`,
      url: `${h.sources.url('carol.example', '/')}`,
    });
  }, 60_000);

  it('sanity: a small reply is parsed as usual within the same budget', async () => {
    const m = await verified(
      '/small',
      hEntry(
        `<div class="u-in-reply-to h-cite"><a class="u-url" href="${ADA_POST}">Ada</a></div>` +
          '<div class="e-content"><p>Nice!</p></div>',
      ),
    );
    expect(m.data.type).toBe('reply');
    expect(m.data.contentText).toBe('Nice!');
  }, 60_000);

  it('a link to the target after 100,000 nested elements is found', async () => {
    const deep = `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(100_000)}<a href="${ADA_POST}">x</a></body></html>`;
    h.sources.html('carol.example', '/deep', deep);
    const source = h.sources.url('carol.example', '/deep');
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    expect((await h.waitForStatus(source, ADA_POST, ['verified', 'no_link'], 30_000)).status).toBe(
      'verified',
    );
  }, 60_000);
});
