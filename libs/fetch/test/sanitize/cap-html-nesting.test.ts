// capHtmlNesting: whatever the markup, the parser that runs after it never holds more than the cap of
// open elements (its stack costs depth² otherwise), and markup within the cap comes back unchanged.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { capHtmlNesting } from '../../src/sanitize/index.js';
import { fuzzParams } from '../../../../test-e2e/support/fuzz.js';

/** The deepest the parser's open-element stack gets on `html`. */
function maxDepth(html: string): number {
  let depth = 0;
  let max = 0;
  const parser = new Parser({
    onopentag: () => void (max = Math.max(max, ++depth)),
    onclosetag: () => void depth--,
  });
  parser.write(html);
  parser.end();
  return max;
}

const CAP = 16;

describe('capHtmlNesting', () => {
  it('returns markup within the cap unchanged, unclosed paragraphs and list items included', () => {
    const doc =
      '<div><ul>' +
      '<li>a<br>b<img src=x>'.repeat(500) +
      '</ul>' +
      '<p>x<hr>'.repeat(500) +
      '</div><table>' +
      '<tr><td>x'.repeat(100) +
      '<dl>' +
      '<dt>a<dd>b'.repeat(100);
    expect(capHtmlNesting(doc, CAP) === doc).toBe(true);
    expect(capHtmlNesting('<b>'.repeat(CAP) + 'x', CAP)).toBe('<b>'.repeat(CAP) + 'x');
  });

  it('removes opening tags beyond the cap and keeps the text', () => {
    const out = capHtmlNesting('<div>'.repeat(100) + 'deep' + '</div>'.repeat(100), CAP);
    expect(out.match(/<div>/g)).toHaveLength(CAP);
    expect(out).toContain('deep');
    expect(maxDepth(out)).toBe(CAP);
  });

  it.each([
    ['close tags hidden in raw text', '<b><script></b></script>'],
    ['close tags hidden in comments', '<b><!-- </b> -->'],
    ['close tags hidden in attribute values', '<b title="</b>">'],
    ['close tags hidden in CDATA', '<b><![CDATA[</b>]]>'],
    ['self-closing tags outside foreign content', '<b/>'],
    ['self-closing tags in svg', '<svg><g/>'],
    ['integration points in svg', '<svg><title><b/></title><desc><i/>'],
    ['stray close tags of foreign elements', '<svg></math><i/>'],
    ['implied closes', '<p><div><li><dd><td><tr><option>'],
  ])('%s cannot push the parser past the cap', (_name, unit) => {
    const html = unit.repeat(200);
    expect(maxDepth(capHtmlNesting(html, CAP))).toBeLessThanOrEqual(CAP + 1);
  });

  it('generated markup never makes the parser go deeper than the cap', () => {
    const piece = fc.constantFrom(
      '<b>', '</b>', '<p>', '</p>', '<div>', '</div>', '<li>', '<td>', '<tr>', '<svg>', '</svg>', '<math>',
      '<title>', '</title>', '<script>', '</script>', '<textarea>', '<style>', '<xmp>', '<!--', '-->', '<![CDATA[',
      ']]>', '<b/>', '<br>', '</br>', '<x y="', '"', "'", '>', '<', '</', '<!x>', '<?x>', 'text', ' ', '/',
    ); // prettier-ignore
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (pieces) => {
        const html = pieces.join('');
        expect(maxDepth(capHtmlNesting(html, CAP))).toBeLessThanOrEqual(CAP + 1);
      }),
      fuzzParams(),
    );
  });
});
