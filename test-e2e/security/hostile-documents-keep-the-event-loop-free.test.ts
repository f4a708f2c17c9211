// Every route that parses a document it fetched or was sent — feed discovery (Microsub follow, preview
// and search; Feedbin subscribe), feeds themselves, OPML imports, webmention sources, saved pages,
// IndieAuth client pages, archive imports — fed the hostile documents of the second security review
// (issue 37): a 1.1 MB page of 100,000 nested <div>, a feed nested as deep, a page of 400,000
// attributes, ZIP bombs, JSON nested 100,000 deep, billion laughs. While each one is handled — the request
// and the background work it starts, until its outcome is visible — /healthz, probed on its own
// connection, must keep answering within 100 ms (docs/security.md, "Parsing fetched documents").
// The worst probe of each case is printed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { zip } from '../../services/archive/test/fixtures.js';
import { eventually, xmlrpc, newPostId } from '../support/client.js';
import { contention, Prober } from '../support/hostile.js';
import { startInstance, type Instance } from '../support/instance.js';

const RESPONSIVE_MS = 100;

// --- the hostile documents -----------------------------------------------------------------------

const DEPTH = 100_000;
const nested = (inner: string) => `${'<div>'.repeat(DEPTH)}${inner}${'</div>'.repeat(DEPTH)}`;
/** 1.1 MB of nesting with what a parser is looking for at the very bottom. */
const deepPage = (inner: string) =>
  `<!doctype html><html><head><title>deep</title></head><body>${nested(inner)}</body></html>`;
/** 400,000 attributes on one element (a parser's attribute map, not its stack). */
const wideTag = () =>
  `<!doctype html><html><head><title>wide</title></head><body><p ${Array.from(
    { length: 400_000 },
    (_, i) => `a${i}=x`,
  ).join(' ')}>x</p></body></html>`;
const deepFeed = () =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><title>i</title>` +
  `${'<x>'.repeat(DEPTH)}${'</x>'.repeat(DEPTH)}</item></channel></rss>`;
const deepOpml = () =>
  `<?xml version="1.0"?><opml version="1.0"><body>${'<outline text="x">'.repeat(DEPTH)}` +
  `${'</outline>'.repeat(DEPTH)}</body></opml>`;
const billionLaughs = () =>
  '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
  '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>' +
  '<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>&d;</title></channel></rss>';
const deepJson = () =>
  `{"version":"https://jsonfeed.org/version/1.1","items":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`;
const manyObjects = () =>
  `{"version":"https://jsonfeed.org/version/1.1","title":"t","items":[${'{"id":"x","content_text":"x"},'.repeat(
    200_000,
  )}{"id":"y","content_text":"y"}]}`;
/** A ZIP whose feed.json inflates 1000:1 (64 MB of spaces in ~64 KB): refused past 100:1. */
function zipBomb(): Buffer {
  const feed = JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 't', items: [] });
  return zip([{ name: 'feed.json', data: Buffer.concat([Buffer.from(feed), Buffer.alloc(64 << 20, 0x20)]) }]);
}

interface Served {
  url: string;
  serve(path: string, type: string, body: string): string;
  close(): Promise<void>;
}

async function serveDocuments(): Promise<Served> {
  const pages = new Map<string, { type: string; body: Buffer }>();
  const server = http.createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': page.type, 'content-length': page.body.length }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    serve(path, type, body) {
      pages.set(path, { type, body: Buffer.from(body) });
      return `${url}${path}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// --- the probe -----------------------------------------------------------------------------------

let instance: Instance;
let docs: Served;
let ada: { username: string; token: string; siteId: number };
let permalink: string;

beforeAll(async () => {
  docs = await serveDocuments();
  instance = await startInstance({
    // The documents are served on 127.0.0.1: allowed here as an operator would allow a trusted host.
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    MICROSUB_FOLLOW_LIMIT_PER_MINUTE: '1000',
    READER_SUBSCRIBE_LIMIT_PER_MINUTE: '1000',
    READER_IMPORT_LIMIT_PER_HOUR: '1000',
  });
  const made = await instance.createUser('ada');
  const sites = await api('GET', `/admin/sites?username=ada`, instance.adminToken);
  ada = { ...made, siteId: (sites.json as { sites: { id: number }[] }).sites[0]!.id };
  const answer = await xmlrpc(instance.url, 'metaWeblog.newPost', [
    '0',
    'ada',
    ada.token,
    { title: 'Target', description: 'A post to reply to.' },
    true,
  ]);
  const got = await xmlrpc(instance.url, 'metaWeblog.getPost', [newPostId(answer), 'ada', ada.token]);
  permalink = /<name>(?:permaLink|link)<\/name><value>(?:<string>)?([^<]+)/.exec(got)![1]!;
}, 120_000);

afterAll(async () => {
  await instance?.stop();
  await docs?.close();
}, 120_000);

async function api(
  method: string,
  path: string,
  token: string | undefined,
  body?: { type: string; data: string | Buffer },
): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(`${instance.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': body.type } : {}),
    },
    body: body?.data,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

const form = (fields: Record<string, string>) => ({
  type: 'application/x-www-form-urlencoded',
  data: new URLSearchParams(fields).toString(),
});

/**
 * The slowest /healthz probe while `run` (a request and the background work it starts) is under way, in
 * ms of an idle machine (divided by the contention measured just before), best of three attempts: a busy
 * machine can delay one probe; a document that blocks the event loop delays them every time.
 */
async function worstProbeDuring(prepare: () => () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best > RESPONSIVE_MS; attempt++) {
    // The documents are built before the probing starts: this process serves them and probes too.
    const run = prepare();
    const stretch = contention();
    const prober = new Prober(instance.url);
    prober.start();
    const from = performance.now();
    await run();
    const to = performance.now();
    const probes = await prober.stop();
    const during = probes.filter((p) => p.startedAt <= to && p.startedAt + p.ms >= from).map((p) => p.ms);
    best = Math.min(best, Math.max(0, ...during) / stretch);
  }
  return best;
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const worst: Record<string, number> = {};

/** Every status a client may get for a hostile document: an answer, never a 5xx. */
const notBroken = (status: number) => expect(status).toBeLessThan(500);

interface Case {
  name: string;
  /** Builds the documents, then returns what sends them and waits for their outcome. */
  prepare: () => () => Promise<void>;
}

const subscribe = (feed_url: string) =>
  api('POST', '/feeds/v2/subscriptions.json', ada.token, {
    type: 'application/json',
    data: JSON.stringify({ feed_url }),
  });
const microsub = (fields: Record<string, string>) => api('POST', '/microsub', ada.token, form(fields));
/** A path of its own for each attempt, so no cache or dedupe answers a retry without parsing. */
const fresh = (name: string) => `/${name}-${Math.random().toString(36).slice(2)}`;

const cases: Case[] = [
  {
    name: 'Microsub follow of a page of 100,000 nested <div>',
    prepare: () => {
      const url = docs.serve(fresh('follow'), 'text/html', deepPage('<link rel="alternate" href="/f.xml">'));
      return async () => notBroken((await microsub({ action: 'follow', url })).status);
    },
  },
  {
    name: 'Microsub preview of a page of 100,000 nested <div>',
    prepare: () => {
      const url = docs.serve(fresh('preview'), 'text/html', deepPage('<a class="h-entry">x</a>'));
      return async () => notBroken((await microsub({ action: 'preview', url })).status);
    },
  },
  {
    name: 'Microsub search by the URL of a page of 400,000 attributes',
    prepare: () => {
      const query = docs.serve(fresh('search'), 'text/html', wideTag());
      return async () => notBroken((await microsub({ action: 'search', query })).status);
    },
  },
  {
    name: 'Feedbin subscribe to a page of 100,000 nested <div> (discovery, then its icon)',
    prepare: () => {
      const url = docs.serve(fresh('subscribe'), 'text/html', deepPage('<link rel="icon" href="/i.png">'));
      return async () => {
        notBroken((await subscribe(url)).status);
        await settle(500); // icons are fetched by a job
      };
    },
  },
  {
    name: 'Feedbin subscribe to an RSS feed nested 100,000 deep',
    prepare: () => {
      const url = docs.serve(fresh('deep.xml'), 'application/rss+xml', deepFeed());
      return async () => notBroken((await subscribe(url)).status);
    },
  },
  {
    name: 'Feedbin subscribe to a billion-laughs feed',
    prepare: () => {
      const url = docs.serve(fresh('laughs.xml'), 'application/rss+xml', billionLaughs());
      return async () => notBroken((await subscribe(url)).status);
    },
  },
  {
    name: 'OPML import of outlines nested 100,000 deep',
    prepare: () => {
      // Encoded before the probing starts, as every document is built before it: the client sending
      // it runs in this process, and encoding 1.9 MB of text is its work, not the server's.
      const opml = Buffer.from(deepOpml());
      return async () => {
        notBroken(
          (await api('POST', '/feeds/v2/imports.json', ada.token, { type: 'text/xml', data: opml })).status,
        );
        await settle(500); // the import's feeds are subscribed by a job
      };
    },
  },
  {
    name: 'a webmention whose source is 100,000 nested <div> (verified in the background)',
    prepare: () => {
      const source = docs.serve(
        fresh('reply'),
        'text/html',
        deepPage(`<a class="u-in-reply-to" href="${permalink}">re</a>`),
      );
      return async () => {
        const sent = await api('POST', '/webmention', undefined, form({ source, target: permalink }));
        expect(sent.status).toBe(202);
        // Until the source has been fetched and judged (kept without content when too costly to parse),
        // or 15 s.
        await eventually(
          async () => {
            const res = await api('GET', `/webmention?target=${encodeURIComponent(permalink)}`, undefined);
            const items = (res.json as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
            return items.some((i) => JSON.stringify(i).includes(source)) ? true : undefined;
          },
          'webmention judged',
          15_000,
        ).catch(() => undefined);
      };
    },
  },
  {
    name: 'a saved page of 100,000 nested <div> (title read, article extracted in the background)',
    prepare: () => {
      const url = docs.serve(fresh('saved'), 'text/html', deepPage('<article><p>words</p></article>'));
      return async () => {
        notBroken((await api('POST', '/posts/bookmarks', ada.token, form({ url }))).status);
        await settle(2_000);
      };
    },
  },
  {
    name: 'an IndieAuth client page of 100,000 nested <div>',
    prepare: () => {
      const client_id = docs.serve(
        `${fresh('client')}/`,
        'text/html',
        deepPage('<div class="h-app"><a class="u-url p-name" href="./">App</a></div>'),
      );
      const query = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: `${client_id}cb`,
        state: 's',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        me: 'http://murmur.test/ada/',
      });
      return async () => notBroken((await api('GET', `/indieauth/auth?${query}`, undefined)).status);
    },
  },
  ...(
    [
      ['a ZIP bomb (feed.json inflating 1000:1)', 'application/zip', zipBomb],
      ['a JSON Feed nested 100,000 deep', 'application/json', deepJson],
      ['a JSON Feed of 200,000 items', 'application/json', manyObjects],
      ['a billion-laughs WXR export', 'application/xml', billionLaughs],
    ] as const
  ).map(([what, type, make]): Case => ({
    name: `archive import of ${what}`,
    prepare: () => {
      // As bytes before the probing starts (the 200,000 items are 6 MB of text to encode otherwise).
      const made = make();
      const data = typeof made === 'string' ? Buffer.from(made) : made;
      return async () => {
        const sent = await api('POST', `/imported/archive/${ada.siteId}/import`, ada.token, { type, data });
        notBroken(sent.status);
        const id = (sent.json as { id?: string } | undefined)?.id;
        if (sent.status !== 202 || !id) return;
        await eventually(
          async () => {
            const res = await api('GET', `/imported/archive/${ada.siteId}/import/${id}`, ada.token);
            const status = (res.json as { status?: string } | undefined)?.status;
            return status === 'complete' || status === 'failed' ? status : undefined;
          },
          'import ended',
          60_000,
        );
      };
    },
  })),
];

describe('hostile documents are parsed without holding the event loop', () => {
  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: /healthz stays under 100 ms',
    async (name, c) => {
      worst[name] = await worstProbeDuring(c.prepare);
      expect(worst[name]).toBeLessThanOrEqual(RESPONSIVE_MS);
    },
    600_000,
  );

  afterAll(() => {
    const lines = Object.entries(worst).map(([n, ms]) => `  ${String(Math.round(ms)).padStart(5)} ms  ${n}`);
    console.log(`worst /healthz during each hostile document (ms of an idle machine):\n${lines.join('\n')}`);
  });
});
