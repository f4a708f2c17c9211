// A linear guard against deeply nested HTML. htmlparser2 (under sanitize-html, and the parsers services
// use for text extraction) keeps its open-element stack with Array#unshift and searches it on every
// close tag, so n nested elements cost n² — 128k nested <b> (under 1 MB) stall a process for seconds.
// capHtmlNesting tokenizes with the same htmlparser2 tokenizer sanitize-html uses, mirrors the parser's
// open-element stack with O(1) operations, and removes opening tags that would take the stack deeper
// than the cap, so the parser that runs afterwards never holds more than `maxDepth` (+1) open elements.
import { Tokenizer } from 'htmlparser2';

/** Open elements kept; deeper opening tags are removed (their text stays). */
export const MAX_HTML_NESTING = 256;

// What htmlparser2's Parser does with its stack in HTML mode (version pinned with sanitize-html's).
const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTION = new Set(['thead', 'tbody']);
const DDT = new Set(['dd', 'dt']);
const RTP = new Set(['rt', 'rp']);
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])], ['li', new Set(['li'])], ['p', P], ['h1', P], ['h2', P],
  ['h3', P], ['h4', P], ['h5', P], ['h6', P], ['select', FORM], ['input', FORM], ['output', FORM],
  ['button', FORM], ['datalist', FORM], ['textarea', FORM], ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])], ['dd', DDT], ['dt', DDT], ['address', P], ['article', P],
  ['aside', P], ['blockquote', P], ['details', P], ['div', P], ['dl', P], ['fieldset', P], ['figcaption', P],
  ['figure', P], ['footer', P], ['form', P], ['header', P], ['hr', P], ['main', P], ['nav', P], ['ol', P],
  ['pre', P], ['section', P], ['table', P], ['ul', P], ['rt', RTP], ['rp', RTP], ['tbody', TABLE_SECTION],
  ['tfoot', TABLE_SECTION],
]); // prettier-ignore
const VOID = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]); // prettier-ignore
const FOREIGN = new Set(['math', 'svg']);
const INTEGRATION = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);
/** Their content is raw text to the tokenizer: never removed, so the rest tokenizes the same; they cannot nest. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

/**
 * `html` with every opening tag removed that would nest more than `maxDepth` elements deep (each removed
 * tag is replaced by a space, so text on either side cannot join into new markup). Linear in the input;
 * documents within the cap come back unchanged. The platform sanitiser applies it; apply it before any
 * other htmlparser2 parse of untrusted HTML.
 */
export function capHtmlNesting(html: string, maxDepth: number = MAX_HTML_NESTING): string {
  // A document with fewer tags than the cap cannot exceed it: the common case costs one scan.
  let opens = 0;
  for (let i = html.indexOf('<'); i !== -1 && opens <= maxDepth; i = html.indexOf('<', i + 1)) opens++;
  if (opens <= maxDepth) return html;

  // The parser's stack, top last, with a count per name so a close tag finds its element in O(1).
  const stack: string[] = [];
  const open = new Map<string, number>();
  const foreign: boolean[] = [false]; // top last; the parser's foreignContext
  const push = (name: string) => {
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
  };
  const pop = () => {
    const name = stack.pop()!;
    open.set(name, open.get(name)! - 1);
    return name;
  };

  const removed: number[] = []; // [start, end) pairs, in order
  let tagName = '';
  let tagStart = -1;
  let dropping = false;

  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      onopentagname(start, end) {
        const name = html.slice(start, end).toLowerCase();
        tagName = name;
        tagStart = start - 1;
        // The elements this tag closes implicitly (only if it is kept: a removed tag closes nothing).
        const implied = OPEN_IMPLIES_CLOSE.get(name);
        let closes = 0;
        if (implied) while (closes < stack.length && implied.has(stack[stack.length - 1 - closes]!)) closes++;
        dropping = !VOID.has(name) && !RAW_TEXT.has(name) && stack.length - closes >= maxDepth;
        if (dropping) return;
        for (; closes > 0; closes--) pop();
        if (VOID.has(name)) return;
        push(name);
        if (FOREIGN.has(name)) foreign.push(true);
        else if (INTEGRATION.has(name)) foreign.push(false);
      },
      onopentagend(end) {
        if (dropping) removed.push(tagStart, end + 1);
        dropping = false;
      },
      onselfclosingtag(end) {
        if (dropping) removed.push(tagStart, end + 1);
        else if (foreign[foreign.length - 1] === true && stack[stack.length - 1] === tagName) pop();
        dropping = false;
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if (FOREIGN.has(name) || INTEGRATION.has(name)) foreign.pop();
        if (VOID.has(name) || !open.get(name)) return; // a stray </p> opens and closes a <p>: no change
        while (pop() !== name);
      },
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onattribname() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  if (removed.length === 0) return html;

  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < removed.length; i += 2) {
    parts.push(html.slice(at, removed[i]), ' ');
    at = removed[i + 1]!;
  }
  parts.push(html.slice(at));
  return parts.join('');
}
