// A verified HTML source is parsed with microformats-parser: the type from like-of / repost-of /
// bookmark-of / in-reply-to (also inside an embedded h-cite) else mention; the author with its
// fallbacks; content sanitised (a <script> never reaches any output) and cut at 2,000 characters;
// the published date. Re-verifying an unchanged source keeps the wm-id and announces nothing new.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { ADA_POST, hEntry, startHarness, withSites, type Harness } from './harness.js';

describe('verification: parsing the source', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await withSites(h);
  });
  afterAll(() => h.stop());

  async function verified(path: string, html: string) {
    h.sources.html('carol.example', path, html);
    const source = h.sources.url('carol.example', path);
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    await h.waitForStatus(source, ADA_POST, ['verified']);
    return eventually(async () => h.verified.filter((e) => e.data.source === source).at(-1));
  }

  it('like-of naming the target → like; repost-of → repost; bookmark-of → bookmark', async () => {
    const like = await verified('/like', hEntry(`<a class="u-like-of" href="${ADA_POST}">liked</a>`));
    expect(like.data.type).toBe('like');
    expect(like.data.contentHtml).toBe('');
    const repost = await verified('/repost', hEntry(`<a class="u-repost-of" href="${ADA_POST}">r</a>`));
    expect(repost.data.type).toBe('repost');
    const bookmark = await verified('/bm', hEntry(`<a class="u-bookmark-of" href="${ADA_POST}">b</a>`));
    expect(bookmark.data.type).toBe('bookmark');
  });

  it('in-reply-to via an embedded h-cite → reply, with author h-card and content', async () => {
    const reply = await verified(
      '/reply',
      hEntry(
        `<div class="u-in-reply-to h-cite"><a class="u-url" href="${ADA_POST}">Ada's post</a></div>
         <span class="p-author h-card"><a class="u-url p-name" href="https://carol.example/">Carol</a><img class="u-photo" src="/c.jpg" alt=""></span>
         <time class="dt-published" datetime="2026-11-21T08:30:00Z">then</time>
         <div class="e-content"><p>Nice!</p></div>`,
      ),
    );
    expect(reply.data.type).toBe('reply');
    expect(reply.data.author).toEqual({
      name: 'Carol',
      url: 'https://carol.example/',
      photo: h.sources.url('carol.example', '/c.jpg'),
    });
    expect(reply.data.contentHtml).toBe('<p>Nice!</p>');
    expect(reply.data.contentText).toBe('Nice!');
    expect(reply.data.published).toBe('2026-11-21T08:30:00+00:00');
    expect(reply.data.isNew).toBe(true);
  });

  it('no response property → mention; a plain link to the target in the content', async () => {
    const m = await verified(
      '/mention',
      hEntry(`<div class="e-content">Read <a href="${ADA_POST}">this</a></div>`),
    );
    expect(m.data.type).toBe('mention');
    expect(m.data.published).toBeNull();
  });

  it('author fallbacks: a URL author, the h-feed author, rel=author, then the source host', async () => {
    const byUrl = await verified(
      '/au1',
      hEntry(`<a class="u-author" href="https://dave.example/">x</a><a href="${ADA_POST}">t</a>`),
    );
    expect(byUrl.data.author).toEqual({ name: 'dave.example', url: 'https://dave.example/' });
    const byFeed = await verified(
      '/au2',
      `<div class="h-feed"><span class="p-author h-card">Feed Author</span><div class="h-entry"><a href="${ADA_POST}">t</a></div></div>`,
    );
    expect(byFeed.data.author.name).toBe('Feed Author');
    const byRel = await verified(
      '/au3',
      `<link rel="author" href="https://erin.example/me">${hEntry(`<a href="${ADA_POST}">t</a>`)}`,
    );
    expect(byRel.data.author).toEqual({ name: 'erin.example', url: 'https://erin.example/me' });
    const byHost = await verified('/au4', `<title>Plain page</title><a href="${ADA_POST}">t</a>`);
    expect(byHost.data.author.name).toBe(`carol.example:${h.sources.port}`);
    expect(byHost.data.contentHtml).toBe('');
  });

  it('<script> in the source’s e-content never reaches any output', async () => {
    const evil = await verified(
      '/evil',
      hEntry(
        `<a href="${ADA_POST}">t</a><div class="e-content"><p onclick="x()">Hi<script>alert("pwned")</script></p><img src="javascript:alert(1)"></div>`,
      ),
    );
    for (const text of [evil.data.contentHtml, evil.data.contentText]) {
      expect(text).not.toMatch(/script|pwned|onclick|javascript:/);
    }
    for (const format of ['jsonfeed', 'jf2', 'mf2']) {
      const res = await h.request(
        'GET',
        `/webmention?target=${encodeURIComponent(ADA_POST)}&format=${format}`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Hi');
      expect(res.body).not.toMatch(/<script|pwned|onclick|javascript:/);
    }
  });

  it('content over 2,000 characters is cut at a word boundary with "…"', async () => {
    const long = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
    const m = await verified(
      '/long',
      hEntry(`<a href="${ADA_POST}">t</a><div class="e-content"><p><b>${long}</b></p></div>`),
    );
    expect(m.data.contentText.length).toBeLessThanOrEqual(2001);
    expect(m.data.contentText.endsWith('…')).toBe(true);
    expect(m.data.contentText).toMatch(/word\d+…$/);
    expect(m.data.contentHtml).toBe(m.data.contentText);
  });

  it('re-verifying an unchanged source emits no isNew event and keeps the wm-id; an edit is not new', async () => {
    const page = hEntry(
      `<a class="u-in-reply-to" href="${ADA_POST}">re</a><div class="e-content">First</div>`,
    );
    const first = await verified('/again', page);
    const source = h.sources.url('carol.example', '/again');
    const count = () => h.verified.filter((e) => e.data.source === source).length;
    const before = count();
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    await eventually(async () =>
      (await h.jobsOf('webmention.mention.verify')).every((j) => j.status === 'done') ? true : undefined,
    );

    h.sources.html('carol.example', '/again', page.replace('First', 'Edited'));
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    const edited = await eventually(async () =>
      h.verified.find((e) => e.data.source === source && e.data.contentText === 'Edited'),
    );
    expect(edited.data.id).toBe(first.data.id);
    expect(edited.data.isNew).toBe(false);
    // The outbox relays oldest first: anything the unchanged run had announced would be here by now.
    expect(count()).toBe(before + 1);
    expect(h.verified.filter((e) => e.data.source === source && e.data.isNew)).toHaveLength(1);
  });
});
