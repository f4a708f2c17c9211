// The one HTML policy of docs/security.md, HTML, as its checklist states it.
import { describe, expect, test } from '@jest/globals';
import { LINK_REL, sanitizeHtmlFragment } from '../../src/sanitize/index.js';

const clean = (html: string, baseUrl: string | null = 'https://b.example/feed') =>
  sanitizeHtmlFragment(html, { baseUrl });

describe('sanitizeHtmlFragment', () => {
  test('relative links are made absolute against the document and get rel=nofollow noopener noreferrer', () => {
    expect(clean('<a href="/x">x</a>')).toBe(`<a href="https://b.example/x" rel="${LINK_REL}">x</a>`);
    expect(clean('<img src="pic.png" alt="p">')).toBe('<img src="https://b.example/pic.png" alt="p" />');
  });

  test('scripts, handlers, styles, and javascript:/data:/protocol-relative URLs never survive', () => {
    const out = clean(
      '<p onclick="x()" style="color:red" class="c" id="i">hi<script>alert(1)</script></p>' +
        '<a href="javascript:alert(1)">j</a><img src="data:image/png;base64,AAAA"><a href="//evil.example/">p</a>' +
        '<iframe src="https://e.example/"></iframe><svg><a href="https://e.example/">s</a></svg><form><button>b</button></form>',
    );
    expect(out).not.toMatch(/script|onclick|style=|class=|id=|javascript:|data:|evil|iframe|svg|button/);
    expect(out).toContain('<p>hi</p>');
  });

  test('allowed structure is kept: tables, media with http(s) sources, time, lists', () => {
    const html =
      '<table><tr><td colspan="2">c</td></tr></table><video src="https://v.example/a.mp4" controls></video>' +
      '<time datetime="2026-11-21">today</time><ol start="3"><li>x</li></ol>';
    expect(clean(html)).toBe(
      '<table><tr><td colspan="2">c</td></tr></table><video src="https://v.example/a.mp4" controls></video>' +
        '<time datetime="2026-11-21">today</time><ol start="3"><li>x</li></ol>',
    );
  });

  test('without a base URL relative references stay relative', () => {
    expect(clean('<a href="/x">x</a>', null)).toBe(`<a href="/x" rel="${LINK_REL}">x</a>`);
  });

  test('the text filter sees escaped text outside links only', () => {
    const seen: string[] = [];
    const out = sanitizeHtmlFragment('<p>hi @bob &amp; <a href="https://x.example/">@carol</a></p>', {
      baseUrl: null,
      textFilter: (text) => {
        seen.push(text);
        return text.replace('@bob', '<a href="https://b.example/">@bob</a>');
      },
    });
    expect(seen.join('|')).not.toContain('@carol');
    expect(out).toContain('<a href="https://b.example/">@bob</a> &amp; ');
  });
});
