// Property-based fuzzing of the one HTML sanitiser (docs/security.md, "What the harness covers"):
// whatever markup goes in — generated soup, known XSS vectors, vectors spliced into soup — nothing
// that can run script comes out, the output is stable when sanitised again, and time stays linear.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { sanitizeHtmlFragment } from '../../src/sanitize/index.js';
import {
  fuzzParams,
  hostileMarkup,
  LINEAR_RATIO_BOUND,
  linearity,
  mutated,
  nesting,
  runOf,
  scriptCapable,
  XSS_VECTORS,
} from '../../../../test-e2e/support/fuzz.js';

const baseUrl = fc.constantFrom(null, 'https://b.example/feed', 'https://b.example/a/b/?q=1');
const sanitize = (html: string, base: string | null = 'https://b.example/feed') =>
  sanitizeHtmlFragment(html, { baseUrl: base });

describe('sanitizeHtmlFragment (fuzzed)', () => {
  it.each(XSS_VECTORS.map((v) => [v]))('known vector %j comes out harmless', (vector) => {
    for (const base of [null, 'https://b.example/feed']) {
      const out = sanitize(vector, base);
      expect({ vector, out, unsafe: scriptCapable(out) }).toEqual({ vector, out, unsafe: null });
    }
  });

  it('generated markup never comes out script-capable', () => {
    fc.assert(
      fc.property(hostileMarkup(), baseUrl, (html, base) => {
        const out = sanitize(html, base);
        expect({ html, out, unsafe: scriptCapable(out) }).toEqual({ html, out, unsafe: null });
      }),
      fuzzParams(),
    );
  });

  it('known vectors mutated and spliced into each other never come out script-capable', () => {
    const spliced = fc
      .tuple(fc.constantFrom(...XSS_VECTORS), fc.constantFrom(...XSS_VECTORS))
      .chain(([a, b]) => mutated(a + b));
    fc.assert(
      fc.property(spliced, baseUrl, (html, base) => {
        const out = sanitize(html, base);
        expect({ html, out, unsafe: scriptCapable(out) }).toEqual({ html, out, unsafe: null });
      }),
      fuzzParams(),
    );
  });

  it('sanitised output is not made script-capable by a second pass (stored HTML is re-read)', () => {
    fc.assert(
      fc.property(hostileMarkup(), (html) => {
        const twice = sanitize(sanitize(html));
        expect(scriptCapable(twice)).toBeNull();
      }),
      fuzzParams(0.5),
    );
  });

  it('a text filter sees only escaped text, never markup it could smuggle through', () => {
    fc.assert(
      fc.property(hostileMarkup(), (html) => {
        const seen: string[] = [];
        sanitizeHtmlFragment(html, { baseUrl: null, textFilter: (t) => (seen.push(t), t) });
        for (const text of seen) expect(text).not.toMatch(/[<>]/);
      }),
      fuzzParams(0.5),
    );
  });
});

describe('sanitizeHtmlFragment time stays linear in input size', () => {
  const shapes = [
    runOf('<'),
    runOf('&'),
    runOf('&#'),
    runOf('<a '),
    runOf('<a href="'),
    runOf('<img src=x '),
    runOf('<!--'),
    runOf('<![CDATA['),
    runOf('</'),
    runOf('"'),
    runOf('<p>x'),
    runOf('<script>'),
    nesting('<script>', '</script>'),
  ];
  it.each(shapes.map((s) => [s.name, s] as const))('%s', async (_name, shape) => {
    const result = await linearity((html: string) => sanitize(html), shape, { startN: 64, maxN: 1 << 15 });
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});

describe('defects found by this harness, now fixed (regression tests)', () => {
  // Defect: deeply nested elements cost depth² — htmlparser2 (under sanitize-html) keeps its open-element
  // stack with Array#unshift and searches it with indexOf on every close, so 100k nested <b> (300 KB,
  // well inside a feed entry or a post body) stalled the process for many seconds. Fixed by capping the
  // nesting depth before parsing (capHtmlNesting, src/sanitize/nesting.ts).
  it.each([
    ['nesting <div>…</div>', nesting('<div>', '</div>', 'x')],
    ['unclosed <span> then stray </div>s', nesting('<span>', '</div>')],
  ] as const)('%s', async (_name, shape) => {
    // The depth² term dominates from a few thousand levels on; below that the linear work hides it.
    const result = await linearity((html: string) => sanitize(html), shape, { startN: 6000, maxN: 6000 });
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});
