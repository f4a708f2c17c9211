// Property-based fuzzing of the XML-RPC codec (docs/security.md, "What the harness covers"): values
// survive encode → decode; any bytes at all are either a method call or the codec's own fault (never
// another exception, never an expanded entity); and decoding time stays linear in the body's size.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { decodeMethodCall } from '../src/xmlrpc/decode.js';
import { encodeFault, encodeMethodCall, encodeResponse } from '../src/xmlrpc/encode.js';
import { FAULT, XmlRpcFault, type XmlRpcOut, type XmlRpcValue } from '../src/xmlrpc/values.js';
import { stripNonXmlCharacters } from '../src/xml-text.js';
import {
  fuzzParams,
  LINEAR_RATIO_BOUND,
  linearity,
  mutated,
  nesting,
  runOf,
  type Shape,
} from '../../../test-e2e/support/fuzz.js';

const FAULT_CODES: ReadonlySet<number> = new Set(Object.values(FAULT));

/** Decodes `xml`; a fault is returned, any other exception fails the property. */
function decodeOrFault(xml: string): ReturnType<typeof decodeMethodCall> | XmlRpcFault {
  try {
    return decodeMethodCall(xml);
  } catch (err) {
    if (!(err instanceof XmlRpcFault)) throw new Error(`not a fault: ${String(err)}`, { cause: err });
    expect(FAULT_CODES.has(err.faultCode)).toBe(true);
    expect(err.faultString.length).toBeGreaterThan(0);
    return err;
  }
}

// --- values -------------------------------------------------------------------------------------

// XML cannot carry C0 controls (but tab/LF), U+FFFE/U+FFFF or lone surrogates; the encoder drops them.
// A carriage return is turned into a line feed by every XML parser (end-of-line handling), so the
// generated strings leave it out too.
const xmlString = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .map((s) => stripNonXmlCharacters(s).replace(/\r/g, ''));

const wholeSecondDate = fc
  .integer({ min: Date.UTC(1970, 0, 1) / 1000, max: Date.UTC(2200, 0, 1) / 1000 })
  .map((s) => new Date(s * 1000));

const number = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
);

const { value: valueArb } = fc.letrec<{ value: XmlRpcOut }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    xmlString,
    number,
    fc.boolean(),
    wholeSecondDate,
    fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(xmlString, tie('value')), { maxLength: 4 }).map((entries) => new Map(entries)),
  ),
}));

/** The decoded shape of an encoded value: structs come back as Maps, everything else as it went. */
function decodedForm(value: XmlRpcOut): XmlRpcValue {
  if (Array.isArray(value)) return value.map(decodedForm);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, decodedForm(v)]));
  if (typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value))
    return new Map(Object.entries(value).map(([k, v]) => [k, decodedForm(v)]));
  return value;
}

describe('XML-RPC codec round trip (fuzzed)', () => {
  it('every value the encoder writes decodes back to the same value', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z][\w.]{0,30}$/),
        fc.array(valueArb, { maxLength: 4 }),
        (methodName, params) => {
          const decoded = decodeMethodCall(encodeMethodCall(methodName, params));
          expect(decoded).toEqual({ methodName, params: params.map(decodedForm) });
        },
      ),
      fuzzParams(),
    );
  });

  it('any string, control characters and lone surrogates included, is encoded as well-formed XML', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const call = decodeMethodCall(encodeMethodCall('x', [text, { [text]: text }]));
        const carried = stripNonXmlCharacters(text).replace(/\r\n?/g, '\n');
        expect(call.params[0]).toBe(carried);
        for (const xml of [encodeResponse(text), encodeFault(-32602, text)]) {
          expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<methodResponse>/);
          // eslint-disable-next-line no-control-regex -- what XML 1.0 forbids must never be written
          expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
        }
      }),
      fuzzParams(),
    );
  });
});

// --- hostile bodies ------------------------------------------------------------------------------

const BILLION_LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
  Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
  ).join('') +
  ']>';

const XML_PIECES = [
  '<methodCall>', '</methodCall>', '<methodName>', '</methodName>', '<params>', '</params>', '<param>',
  '</param>', '<value>', '</value>', '<string>', '</string>', '<int>', '</int>', '<i8>', '<double>',
  '<boolean>', '<base64>', '</base64>', '<dateTime.iso8601>', '<struct>', '</struct>', '<member>',
  '</member>', '<name>', '</name>', '<array>', '<data>', '</data>', '</array>', '<nil/>', '<![CDATA[',
  ']]>', '<!--', '-->', '<?xml version="1.0"?>', '<?pi x?>', '<!DOCTYPE x>', '<!DOCTYPE x [<!ENTITY a "b">]>',
  '<!DOCTYPE x SYSTEM "http://127.0.0.2/x.dtd">', '&a;', '&lol9;', '&amp;', '&#0;', '&#1;', '&#xD800;',
  '&#x110000;', '&#99999999999;', '&', '<', '>', '"', "'", '=', '\u0000', '\uFFFE', '\uD800', '99999999999',
  '-2147483649', '1e999', 'NaN', '__proto__', 'constructor', 'a:b', 'xmlns:x="y"',
]; // prettier-ignore

const hostileXml = fc.oneof(
  fc
    .array(fc.oneof(fc.constantFrom(...XML_PIECES), fc.string({ maxLength: 6 })), { maxLength: 50 })
    .map((p) => p.join('')),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('utf8')),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
);

const validCalls = fc
  .tuple(fc.stringMatching(/^[a-z][\w.]{0,20}$/), fc.array(valueArb, { maxLength: 3 }))
  .map(([name, params]) => encodeMethodCall(name, params));

describe('XML-RPC decoder on hostile bodies (fuzzed)', () => {
  it('arbitrary text and bytes are a method call or a fault, never another exception', () => {
    fc.assert(
      fc.property(hostileXml, (xml) => {
        decodeOrFault(xml);
      }),
      fuzzParams(),
    );
  });

  it('mutated valid calls are a method call or a fault, never another exception', () => {
    fc.assert(
      fc.property(validCalls.chain(mutated), (xml) => {
        decodeOrFault(xml);
      }),
      fuzzParams(),
    );
  });

  it('a DOCTYPE anywhere in front of a call is refused with −32700 and nothing is expanded', () => {
    const doctype = fc.constantFrom(
      BILLION_LAUGHS,
      '<!DOCTYPE methodCall>',
      '<!DOCTYPE x SYSTEM "http://127.0.0.2/evil.dtd">',
      '<!DOCTYPE x [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>',
    );
    fc.assert(
      fc.property(doctype, validCalls, (dt, call) => {
        const xml = call.replace(/^(<\?xml[^>]*\?>\n?)?/, (decl) => `${decl}${dt}`);
        const result = decodeOrFault(xml.replace('<string>', '<string>&lol9;'));
        expect(result).toBeInstanceOf(XmlRpcFault);
        expect((result as XmlRpcFault).faultCode).toBe(FAULT.notWellFormed);
      }),
      fuzzParams(0.25),
    );
  });
});

// --- time stays linear in input size ------------------------------------------------------------

const call = (inner: string) =>
  `<?xml version="1.0"?><methodCall><methodName>x</methodName><params><param><value>${inner}</value></param></params></methodCall>`;
const inString = (unit: string): Shape<string> => ({
  name: `string of ${JSON.stringify(unit)}`,
  make: (n) => call(`<string>${unit.repeat(n)}</string>`),
});

const shapes: Shape<string>[] = [
  inString('&lt;'),
  inString('&amp;'),
  inString('&#1;'),
  inString('&#x41;'),
  inString('&#'),
  inString(']]&gt;'),
  inString('<![CDATA[x]]>'),
  {
    name: 'base64 with whitespace',
    make: (n) => call(`<base64>${'QUJD \n'.repeat(n)}</base64>`),
  },
  {
    name: 'many params',
    make: (n) =>
      `<methodCall><methodName>x</methodName><params>${'<param><value><int>1</int></value></param>'.repeat(
        Math.min(n, 6000),
      )}${'<param><value>x</value></param>'.repeat(Math.max(0, n - 6000))}</params></methodCall>`,
  },
  {
    name: 'struct with one member name repeated',
    make: (n) =>
      call(`<struct>${'<member><name>a</name><value>1</value></member>'.repeat(Math.min(n, 6000))}</struct>`),
  },
  runOf('<'),
  runOf('&'),
  runOf('<!--x-->', '<methodCall>'),
  runOf('<?pi?>', '<methodCall>'),
  nesting('<value><array><data>', '</data></array></value>'),
];

describe('XML-RPC decoding time stays linear in input size', () => {
  it.each(shapes.map((s) => [s.name, s] as const))('%s', async (_name, shape) => {
    const result = await linearity((xml: string) => decodeMethodCall(xml), shape);
    expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
  });
});
