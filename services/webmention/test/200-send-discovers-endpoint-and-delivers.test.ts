// Sending: when one of our posts is published, edited or deleted, each linked page's webmention
// endpoint is discovered (HTTP Link header first, then the first <link>/<a rel="webmention">, relative
// URLs resolved against the final URL) and sent source=permalink, target=link. The discovery cases
// follow the public webmention discovery test suite, against a local server.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { startHarness, type Harness } from './harness.js';
import type { Answer, Received } from './sources.js';

const PERMALINK = 'https://ada.example/2026/11/21/sending.html';

describe('sending webmentions for our posts', () => {
  let h: Harness;
  let postId = 100;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  const B = 'bob.example';
  const pageUrl = (path: string) => h.sources.url(B, path);
  const endpointHits = (path: string) =>
    h.sources.requests.filter((r) => r.method === 'POST' && r.host === B && r.path === path);

  /** Publishes a post linking `links`; waits until each expected endpoint got its POST. */
  async function publishLinking(
    links: string[],
    verb: 'published' | 'updated' | 'deleted' = 'published',
    id = ++postId,
  ) {
    await h.postEvent(verb, {
      id,
      userId: 1,
      url: PERMALINK.replace('.html', `-${id}.html`),
      contentHtml: `<p>${links.map((l) => `<a href="${l}">link</a>`).join(' ')}</p>`,
    });
    return { id, permalink: PERMALINK.replace('.html', `-${id}.html`) };
  }

  async function received(endpointPath: string): Promise<Received> {
    return eventually(async () => endpointHits(endpointPath).at(-1));
  }

  const cases: Array<[string, Answer, string]> = [
    ['Link header, relative URL', { headers: { link: '</ep/1>; rel=webmention' } }, '/ep/1'],
    ['Link header, absolute URL', { headers: { link: `<${'ABS'}/ep/2>; rel="webmention"` } }, '/ep/2'],
    [
      '<link> tag, relative URL',
      { body: '<html><head><link rel="webmention" href="/ep/3"></head></html>' },
      '/ep/3',
    ],
    ['<link> tag, absolute URL', { body: '<link rel="webmention" href="ABS/ep/4">' }, '/ep/4'],
    ['<a> tag, relative URL', { body: '<p><a rel="webmention" href="/ep/5">ep</a></p>' }, '/ep/5'],
    ['<a> tag, absolute URL', { body: '<p><a rel="webmention" href="ABS/ep/6">ep</a></p>' }, '/ep/6'],
    ['Link header with strange casing', { headers: { LinK: '</ep/7>; REL="WebMention"' } }, '/ep/7'],
    [
      'multiple rel values on a <link>',
      { body: '<link rel="webmention somethingelse" href="/ep/8">' },
      '/ep/8',
    ],
    [
      'multiple rel values in a Link header',
      { headers: { link: '</ep/9>; rel="webmention somethingelse"' } },
      '/ep/9',
    ],
    [
      'several endpoints: the Link header wins over the HTML',
      {
        headers: { link: '</ep/10>; rel="other", </ep/10b>; rel="webmention"' },
        body: '<link rel="webmention" href="/ep/10-wrong">',
      },
      '/ep/10b',
    ],
    [
      'several endpoints in HTML: the first in document order',
      { body: '<a rel="webmention" href="/ep/11">a</a><link rel="webmention" href="/ep/11-wrong">' },
      '/ep/11',
    ],
    [
      'an endpoint in a comment is ignored',
      { body: '<!-- <link rel="webmention" href="/ep/12-wrong"> --><link rel="webmention" href="/ep/12">' },
      '/ep/12',
    ],
    [
      'rel="not-webmention" is not the endpoint',
      {
        headers: { link: '</ep/13-wrong>; rel="not-webmention"' },
        body: '<link rel="webmention" href="/ep/13">',
      },
      '/ep/13',
    ],
    [
      'an endpoint with a query string keeps it',
      { body: '<link rel="webmention" href="/ep/14?version=1&a=b">' },
      '/ep/14?version=1&a=b',
    ],
    [
      '<link> without href is skipped',
      { body: '<link rel="webmention"><a rel="webmention" href="/ep/15">x</a>' },
      '/ep/15',
    ],
  ];

  it.each(cases)('%s', async (name, answer, endpointPath) => {
    const page = `/discover/${encodeURIComponent(name)}`;
    const absolute = `http://${B}:${h.sources.port}`;
    const fix = (text?: string) => text?.replaceAll('ABS', absolute);
    h.sources.set(B, page, {
      ...answer,
      headers: Object.fromEntries(Object.entries(answer.headers ?? {}).map(([k, v]) => [k, fix(v)!])),
      body: fix(typeof answer.body === 'string' ? answer.body : '') ?? '',
    });
    h.sources.set(B, endpointPath.split('?')[0]!, { status: 202, body: '' });
    if (endpointPath.includes('?')) h.sources.set(B, endpointPath, { status: 202, body: '' });
    const { permalink } = await publishLinking([pageUrl(page)]);
    const hit = await received(endpointPath);
    expect(hit.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(hit.body))).toEqual({
      source: permalink,
      target: pageUrl(page),
    });
    expect(h.sources.requests.some((r) => r.path.includes('-wrong'))).toBe(false);
  });

  it('an empty href is the page itself', async () => {
    const page = '/discover/empty-href';
    h.sources.set(B, page, (req) =>
      req.method === 'POST' ? { status: 202 } : { body: '<link rel="webmention" href="">' },
    );
    const { permalink } = await publishLinking([pageUrl(page)]);
    const hit = await received(page);
    expect(new URLSearchParams(hit.body).get('source')).toBe(permalink);
  });

  it('a redirecting post: a relative endpoint resolves against the final URL', async () => {
    h.sources.set(B, '/discover/moved', { status: 302, headers: { location: '/discover/new-home/page' } });
    h.sources.set(B, '/discover/new-home/page', { headers: { link: '<ep-rel>; rel=webmention' } });
    h.sources.set(B, '/discover/new-home/ep-rel', { status: 202 });
    await publishLinking([pageUrl('/discover/moved')]);
    const hit = await received('/discover/new-home/ep-rel');
    expect(new URLSearchParams(hit.body).get('target')).toBe(pageUrl('/discover/moved'));
  });

  it('an edit notifies the links it has and the ones it lost; a deletion notifies its last links again', async () => {
    for (const p of ['/e/a', '/e/b']) {
      h.sources.set(B, p, { headers: { link: `<${p}/ep>; rel=webmention` } });
      h.sources.set(B, `${p}/ep`, { status: 202 });
    }
    const { id } = await publishLinking([pageUrl('/e/a'), pageUrl('/e/b')]);
    await received('/e/a/ep');
    await received('/e/b/ep');
    await publishLinking([pageUrl('/e/a')], 'updated', id);
    await eventually(async () => (endpointHits('/e/b/ep').length === 2 ? true : undefined));
    await eventually(async () => (endpointHits('/e/a/ep').length === 2 ? true : undefined));
    // The deletion event carries the post's last public copy: its receivers hear of it once more
    // (and find the 410); the link dropped by the edit was told already.
    await publishLinking([pageUrl('/e/a')], 'deleted', id);
    await eventually(async () => (endpointHits('/e/a/ep').length === 3 ? true : undefined));
    expect(endpointHits('/e/b/ep')).toHaveLength(2);
  });

  it('an endpoint answering 503 is retried until it accepts; a page without an endpoint is recorded', async () => {
    let calls = 0;
    h.sources.set(B, '/r/page', { headers: { link: '</r/ep>; rel=webmention' } });
    h.sources.set(B, '/r/ep', () => (++calls < 3 ? { status: 503 } : { status: 201 }));
    h.sources.set(B, '/r/plain', { body: '<p>no endpoint</p>' });
    const { id } = await publishLinking([pageUrl('/r/page'), pageUrl('/r/plain')]);
    const sends = h.store.collection('sends');
    const records = await eventually(async () => {
      const list = await sends.find({ postId: id });
      return list.length === 2 && list.every((s) => s.status !== 'queued' && s.status !== 'retrying')
        ? list
        : undefined;
    });
    expect(Object.fromEntries(records.map((r) => [r.target, r.status]))).toEqual({
      [pageUrl('/r/page')]: 'sent',
      [pageUrl('/r/plain')]: 'no_endpoint',
    });
    expect(calls).toBe(3);
  });

  it('a link to a private address is never fetched', async () => {
    const { id } = await publishLinking(['http://127.0.0.2:9/x']);
    const record = await eventually(async () => {
      const r = await h.store.collection('sends').findOne({ postId: id });
      return r && r.status !== 'queued' ? r : undefined;
    });
    expect(record.status).toBe('refused');
  });
});
