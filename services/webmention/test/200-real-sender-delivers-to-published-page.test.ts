// A real sender, the npm `@remy/webmention` CLI, reads a reply page, discovers Murmur's endpoint from
// the linked page of a user's site (its <link rel="webmention">, as site pages advertise it) and
// delivers through the gateway; the mention ends up verified and visible in all three formats and in
// the user's webmentions.json feed (the real feeds service, fed by our events).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { identity } from '@murmur/contracts';
import { eventually, sendOverWire } from '@murmur/testing';
import { ADA, hEntry, startHarness, type Harness } from './harness.js';

const require = createRequire(import.meta.url);
const WM_BIN = join(dirname(require.resolve('@remy/webmention/package.json')), 'bin', 'wm.js');

describe('a real sender', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ gateway: true, feeds: true });
    await h.bus.publish(identity.userCreated, {
      user: {
        id: ADA.id,
        username: ADA.username,
        email: 'ada@example.com',
        name: 'Ada',
        fullName: 'Ada',
        avatar: '',
        bio: '',
        links: [],
        createdAt: new Date().toISOString(),
      },
    });
    // Ada's site on a host of its own (the sender skips links to the source's own host, so the reply
    // lives on `localhost` and Ada's site on 127.0.0.1).
    await h.addSite({
      id: 3,
      userId: ADA.id,
      username: 'ada',
      host: `127.0.0.1:${h.sources.port}`,
      url: `http://127.0.0.1:${h.sources.port}/`,
    });
  });
  afterAll(() => h.stop());

  it('@remy/webmention discovers the endpoint and its webmention is verified and shown everywhere', async () => {
    const target = h.sources.url('127.0.0.1', '/2026/11/21/hello.html');
    const source = h.sources.url('localhost', '/carol/reply.html');
    // Ada's published page advertises Murmur's endpoint, in the head and as a Link header.
    h.sources.set('127.0.0.1', '/2026/11/21/hello.html', {
      headers: { link: `<${h.publicUrl}/webmention>; rel="webmention"` },
      body: `<html><head><link rel="webmention" href="${h.publicUrl}/webmention"></head><body class="h-entry"><p class="e-content">Hello</p></body></html>`,
    });
    h.sources.html(
      'localhost',
      '/carol/reply.html',
      hEntry(
        `<a class="u-in-reply-to" href="${target}">Ada's post</a><a class="u-url" href="${source}">#</a>
         <span class="p-author h-card"><span class="p-name">Carol</span></span>
         <div class="e-content">Lovely post!</div>`,
      ),
    );

    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [WM_BIN, source, '--send', '--limit', '1', '--debug'],
      {
        timeout: 20_000,
      },
    );
    expect(`${stdout}${stderr}`).not.toMatch(/error/i);
    // The sender's own account (its --debug log): it found our endpoint and got a 202.
    expect(stdout).toContain(`endpoint = ${h.publicUrl}/webmention`);
    expect(stdout).toMatch(/status\s+=\s+202/);

    const item = await h.waitForStatus(source, target, ['verified', 'no_link', 'failed', 'blocked']);
    expect(item.status).toBe('verified');
    expect(item.type).toBe('reply');

    const q = (format: string) =>
      h.request('GET', `/webmention?target=${encodeURIComponent(target)}&format=${format}`);
    const feed = (await q('jsonfeed')).json() as any;
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]).toMatchObject({
      id: String(item.id),
      content_text: 'Lovely post!',
      _service: { type: 'reply' },
    });
    const jf2 = (await q('jf2')).json() as any;
    expect(jf2.children[0]).toMatchObject({
      'wm-id': item.id,
      'wm-property': 'in-reply-to',
      'in-reply-to': target,
    });
    const mf2 = (await q('mf2')).json() as any;
    expect(mf2.items[0].properties['in-reply-to']).toEqual([target]);

    const webmentions = await eventually(async () => {
      const res = await sendOverWire(h.url, { method: 'GET', url: '/feeds/ada/webmentions.json' });
      const body = res.statusCode === 200 ? (res.json() as any) : undefined;
      return body?.items?.length === 1 ? body : undefined;
    }, 8000);
    expect(webmentions.items[0]).toMatchObject({
      id: String(item.id),
      url: source,
      _service: { type: 'reply', target },
    });
  }, 60_000);
});
