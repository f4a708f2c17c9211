// Shared settings and checks of the property-based fuzzers (libs/<name>/test/fuzz, the XML-RPC codec,
// feed parsing). In CI they run with a fixed seed and a few hundred cases, so a failure reproduces;
// `npm run fuzz` (scripts/fuzz.mjs) runs them longer with a random seed it prints.
//   FUZZ_SEED  the seed (default 42)
//   FUZZ_RUNS  cases per property (default 200)
import fc from 'fast-check';

export const FUZZ_SEED = intFromEnv('FUZZ_SEED', 42);
export const FUZZ_RUNS = intFromEnv('FUZZ_RUNS', 200);

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return n;
}

/** fast-check parameters: the run's seed, `FUZZ_RUNS` cases scaled by `share` (expensive properties use less). */
export function fuzzParams<T>(share = 1): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(FUZZ_RUNS * share)), endOnFailure: true };
}

// Elements that run script, load other documents or change how the page's URLs resolve.
const DANGEROUS_ELEMENTS = new Set([
  'script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'base', 'meta',
  'link', 'style', 'form', 'input', 'button', 'textarea', 'select', 'template', 'noscript', 'xml',
]); // prettier-ignore
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', sol: '/',
  lpar: '(', rpar: ')', period: '.', num: '#', semi: ';', comma: ',', excl: '!',
}; // prettier-ignore

function decodeReferences(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);?/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
  });
}

/** Why `raw` (an attribute value as written) would be a script-capable URL in a browser, or null. */
function unsafeUrl(raw: string): string | null {
  // What a browser does: decode references, drop tab/CR/LF anywhere, trim C0 controls and spaces.
  const url = decodeReferences(raw)
    .replace(/[\t\n\r]/g, '')
    // eslint-disable-next-line no-control-regex -- the characters URL parsing ignores are the point
    .replace(/^[\u0000-\u0020]+/, '');
  // Only letters, digits, `+`, `-` and `.` before the first `:` make a scheme; anything else is a path.
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return null;
  return SAFE_SCHEMES.has(scheme) ? null : `a ${scheme}: URL`;
}

/**
 * The first script-capable construct in sanitised HTML (null when there is none): a script or other
 * dangerous element, an `on*` handler, a `style` attribute, or a URL with a scheme other than http(s)
 * and mailto. Sanitised output escapes `<` in text, so every `<` left starts a real tag.
 */
export function scriptCapable(html: string): string | null {
  if (/<\s*script/i.test(html)) return '<script';
  const tag = /<\/?([^\s/>]*)([^>]*)>?/g;
  for (const m of html.matchAll(tag)) {
    const name = m[1]!.toLowerCase();
    if (DANGEROUS_ELEMENTS.has(name)) return `a <${name}> element`;
    const attribute = /([^\s"'=<>`/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
    for (const a of m[2]!.matchAll(attribute)) {
      const attr = a[1]!.toLowerCase();
      if (attr.startsWith('on')) return `an ${attr}= handler`;
      if (attr === 'style' || attr === 'srcdoc' || attr === 'formaction') return `a ${attr}= attribute`;
      const value = (a[2] ?? '').replace(/^["']|["']$/g, '');
      if (['href', 'src', 'poster', 'cite', 'action', 'background', 'xlink:href', 'data'].includes(attr)) {
        const why = unsafeUrl(value);
        if (why) return why;
      }
    }
  }
  return null;
}

/** Known XSS vectors, used as seeds next to generated markup. */
export const XSS_VECTORS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//x.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<img/src="x"/onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" &#14;  javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<video><source onerror="alert(1)"></video>',
  '<video poster="javascript:alert(1)"></video>',
  '<details open ontoggle=alert(1)>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<table background="javascript:alert(1)"></table>',
  '<blockquote cite="javascript:alert(1)">x</blockquote>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<style><img src="</style><img src=x onerror=alert(1)//">',
  '<textarea><script>alert(1)</script></textarea>',
  '<template><script>alert(1)</script></template>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="java\u0000script:alert(1)">x</a>',
  '<a href="//evil.example/">x</a>',
  '<img src=`x`onerror=alert(1)>',
  '<img """><script>alert(1)</script>">',
  '<<script>script>alert(1)<</script>/script>',
  '<a\nhref\n=\n"javascript:alert(1)">x</a>',
  '<x onmouseover=alert(1)>x</x>',
  '<isindex type=image src=1 onerror=alert(1)>',
];

/** Fragments generated markup is built from: tags, attributes, URLs and the characters parsers trip over. */
const MARKUP_PIECES: readonly string[] = [
  '<', '>', '</', '/>', '"', "'", '=', '&', '&#', ';', '&amp;', '&lt;', '&#x6A;', '&#106', '\u0000', '\t', '\n',
  ' ', '<!--', '-->', '<![CDATA[', ']]>', '<!DOCTYPE html>', '<?xml?>', 'javascript:', 'JAVASCRIPT:',
  'java\tscript:', 'vbscript:', 'data:text/html,', '//evil.example/', 'http://x.example/', 'alert(1)',
  'script', 'onerror', 'onload', 'ONCLICK', 'style', 'href', 'src', 'a', 'img', 'p', 'svg', 'math',
  'iframe', 'textarea', 'noscript', 'template', 'object', 'table', 'video', 'source', 'title',
]; // prettier-ignore

/** Arbitrary HTML-ish text: random pieces of markup, random characters and known vectors spliced together. */
export function hostileMarkup(): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...MARKUP_PIECES) },
    { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
    { weight: 1, arbitrary: fc.constantFrom(...XSS_VECTORS) },
  );
  return fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
}

/** Applies random insertions, deletions and duplications to `text` (mutation fuzzing of valid documents). */
export function mutated(text: string): fc.Arbitrary<string> {
  const edit = fc.tuple(
    fc.nat({ max: text.length }),
    fc.nat({ max: 40 }),
    fc.oneof(fc.constantFrom(...MARKUP_PIECES), fc.string({ maxLength: 8 }), fc.constant('')),
    fc.constantFrom('insert', 'delete', 'replace', 'duplicate'),
  );
  return fc.array(edit, { minLength: 1, maxLength: 8 }).map((edits) => {
    let out = text;
    for (const [at, len, piece, kind] of edits) {
      const i = Math.min(at, out.length);
      if (kind === 'insert') out = out.slice(0, i) + piece + out.slice(i);
      else if (kind === 'delete') out = out.slice(0, i) + out.slice(i + len);
      else if (kind === 'replace') out = out.slice(0, i) + piece + out.slice(i + len);
      else out = out.slice(0, i) + out.slice(i, i + len).repeat(3) + out.slice(i + len);
    }
    return out;
  });
}

// --- time stays linear in input size ---------------------------------------------------------

/** An adversarial input family: `make(n)` is about n units long. */
export interface Shape<T> {
  name: string;
  make: (n: number) => T;
  /**
   * Largest n for this shape, above the caller's option. For inputs refused after a scan or two: their
   * small input must also be past V8's large-object size (strings over 128 KiB are allocated apart, at a
   * higher fixed cost), or the ratio compares two allocators instead of two input sizes.
   */
  maxN?: number;
}

/** `unit` repeated n times between `before` and `after`. */
export function runOf(unit: string, before = '', after = ''): Shape<string> {
  return { name: `run of ${JSON.stringify(unit)}`, make: (n) => before + unit.repeat(n) + after };
}

/** n `open`s, something in the middle, n `close`s. */
export function nesting(open: string, close: string, middle = ''): Shape<string> {
  return {
    name: `nesting ${JSON.stringify(open)}…${JSON.stringify(close)}`,
    make: (n) => open.repeat(n) + middle + close.repeat(n),
  };
}

/** CPU time (user + system) of this process so far, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Fastest of `times` calls, in CPU ms; exceptions count as an answer (refusing fast is fine). CPU time,
 * not wall time: on a busy machine a long call is preempted more often than a short one, which would
 * make linear code look superlinear.
 */
async function fastest(fn: () => unknown, times: number): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const start = cpuMs();
    try {
      await fn();
    } catch {
      /* a refusal is an answer too */
    }
    best = Math.min(best, cpuMs() - start);
  }
  return best;
}

export interface LinearityResult {
  shape: string;
  n: number;
  smallMs: number;
  largeMs: number;
  ratio: number;
}

export interface LinearityOptions {
  /** How much larger the second input is (default 8). */
  factor?: number;
  /** Smallest n tried (doubled until the small input takes `minMs`). */
  startN?: number;
  /** Largest n tried. */
  maxN?: number;
  /** The small input must take at least this long, so timer noise does not decide the ratio. */
  minMs?: number;
  /** Calls of the small input (the large one gets at most 3); the fastest counts. */
  repeats?: number;
}

/**
 * Time of `fn(shape.make(n))` against `fn(shape.make(factor·n))`: n is grown until the small input takes
 * a measurable time, then both are timed several times and the fastest of each compared. Linear code
 * gives a ratio near `factor`; quadratic code near factor² (64 for 8×).
 */
export async function linearity<T>(
  fn: (input: T) => unknown,
  shape: Shape<T>,
  options: LinearityOptions = {},
): Promise<LinearityResult> {
  // A burst of load elsewhere (the suite runs two workers, the machine may run more) can stretch one
  // measurement; quadratic code is slow every time. So a ratio above half the bound is measured again,
  // up to three times, and the best one counts.
  let best = await measureOnce(fn, shape, options);
  for (let attempt = 1; attempt < 3 && best.ratio > LINEAR_RATIO_BOUND / 2; attempt++) {
    const again = await measureOnce(fn, shape, options);
    if (again.ratio < best.ratio) best = again;
  }
  return best;
}

async function measureOnce<T>(
  fn: (input: T) => unknown,
  shape: Shape<T>,
  options: LinearityOptions,
): Promise<LinearityResult> {
  const factor = options.factor ?? 8;
  const minMs = options.minMs ?? 5;
  const maxN = shape.maxN ?? options.maxN ?? 1 << 17;
  const repeats = options.repeats ?? 5;
  let n = options.startN ?? 256;
  let small = shape.make(n);
  let smallMs = await fastest(() => fn(small), 2);
  while (smallMs < minMs && n * 2 <= maxN) {
    n *= 2;
    small = shape.make(n);
    smallMs = await fastest(() => fn(small), 2);
  }
  const large = shape.make(n * factor);
  // Capped by maxN below minMs (fast code on the largest input allowed): each timing runs the call
  // `calls` times, on both sides, so it lasts about minMs — one call of a fraction of a millisecond is
  // timer and scheduler noise, which once read a linear 8× as 42×.
  const calls = smallMs >= minMs ? 1 : Math.min(1000, Math.ceil(minMs / Math.max(smallMs, 0.05)));
  const repeated = (input: T) => async () => {
    for (let c = 0; c < calls; c++) {
      try {
        await fn(input);
      } catch {
        /* a refusal is an answer too (as in fastest) */
      }
    }
  };
  let largeMs = Infinity;
  smallMs = Infinity;
  // Interleaved, so a burst of load elsewhere slows both sides rather than one.
  for (let i = 0; i < repeats; i++) {
    smallMs = Math.min(smallMs, await fastest(repeated(small), 1));
    // Seconds on a few hundred KiB will not turn into milliseconds on a rerun: spare the suite.
    if (largeMs !== Infinity && (largeMs > 1000 || i >= 3)) continue;
    largeMs = Math.min(largeMs, await fastest(repeated(large), 1));
  }
  // Below a millisecond, timer resolution and JIT warm-up dominate: treat it as one.
  const ratio = largeMs / Math.max(smallMs, 1);
  return { shape: shape.name, n, smallMs, largeMs, ratio };
}

/** The default bound for 8× input: far above linear (8) and n·log n (~10), far below quadratic (64). */
export const LINEAR_RATIO_BOUND = 40;
