// The XML-RPC request decoder: a strict streaming parser (saxes) driven as an event machine, with the
// hardening any parser of untrusted XML needs. A DOCTYPE ends the parse (so no entity is ever declared, let alone
// expanded); depth, element count and string sizes are capped while parsing; the grammar of a
// <methodCall> is checked element by element; scalar values are checked as they close.
import { SaxesParser } from 'saxes';
import { parseTimestamp } from '@murmur/core';
import { FAULT, XmlRpcFault, type MethodCall, type XmlRpcStruct, type XmlRpcValue } from './values.js';

export interface DecodeLimits {
  maxDepth: number;
  maxElements: number;
  /** UTF-16 units of any one text value other than base64. */
  maxStringLength: number;
  /** Decoded bytes of one base64 value. */
  maxBase64Bytes: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = {
  maxDepth: 32,
  maxElements: 20_000,
  maxStringLength: 1024 * 1024,
  maxBase64Bytes: 27 * 1024 * 1024,
};

const SCALARS = new Set([
  'int',
  'i4',
  'i8',
  'boolean',
  'string',
  'double',
  'dateTime.iso8601',
  'base64',
  'nil',
]);
const CONTAINERS = new Set(['struct', 'array']);

/** Which children each element may have; `value` takes one typed element. */
const CHILDREN: Record<string, readonly string[]> = {
  methodCall: ['methodName', 'params'],
  params: ['param'],
  param: ['value'],
  value: [...SCALARS, ...CONTAINERS],
  struct: ['member'],
  member: ['name', 'value'],
  array: ['data'],
  data: ['value'],
};

/** Elements whose text is their content; elsewhere only whitespace may appear between elements. */
const TEXT_ELEMENTS = new Set(['methodName', 'name', 'value', ...SCALARS]);

interface Frame {
  name: string;
  text: string[];
  textLength: number;
  children: number;
  /** The element's decoded value (value, scalars, containers). */
  value?: XmlRpcValue;
  /** A value element's typed child, once seen. */
  typed?: boolean;
  list?: XmlRpcValue[];
  struct?: XmlRpcStruct;
  memberName?: string;
  memberValue?: XmlRpcValue;
  hasMemberValue?: boolean;
}

const notWellFormed = (why: string) => new XmlRpcFault(FAULT.notWellFormed, `Parse error: ${why}`);
const invalid = (why: string) => new XmlRpcFault(FAULT.invalidRequest, `Invalid XML-RPC request: ${why}`);
const badValue = (why: string) => new XmlRpcFault(FAULT.badParams, `Invalid parameter value: ${why}`);

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * A decimal number. The digits before the point and after it are separate, unambiguous runs: with
 * `\d+\.?\d*` a long run of digits can be split between the two quantifiers in every way, and a
 * non-matching value of a million digits would keep the process busy for hours.
 */
const DOUBLE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function scalarValue(type: string, raw: string, limits: DecodeLimits): XmlRpcValue {
  switch (type) {
    case 'string':
      return raw;
    case 'int':
    case 'i4':
    case 'i8': {
      const t = raw.trim();
      if (!/^[+-]?\d{1,20}$/.test(t)) throw badValue(`<${type}> must be an integer`);
      const n = Number(t);
      if (n < INT32_MIN || n > INT32_MAX) throw badValue(`<${type}> is out of the 32-bit range`);
      return n;
    }
    case 'boolean': {
      const t = raw.trim();
      if (t !== '0' && t !== '1') throw badValue('<boolean> must be 0 or 1');
      return t === '1';
    }
    case 'double': {
      const t = raw.trim();
      const n = Number(t);
      if (!DOUBLE.test(t) || !Number.isFinite(n)) throw badValue('<double> must be a finite number');
      return n;
    }
    case 'dateTime.iso8601': {
      const parsed = parseTimestamp(raw.trim());
      if (!parsed) throw badValue('<dateTime.iso8601> is not a date');
      return new Date(parsed.ms);
    }
    case 'base64': {
      const t = raw.replace(/[\t\n\r ]+/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.length % 4 === 1)
        throw badValue('<base64> is not valid base64');
      const bytes = Buffer.from(t, 'base64');
      if (bytes.length > limits.maxBase64Bytes) throw notWellFormed('base64 value too large');
      return bytes;
    }
    default:
      return null; // nil
  }
}

/** Character references to characters XML 1.0 forbids (`&#1;`): dropped, as they would be on output. */
const FORBIDDEN_REFERENCE = /&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));/g;
function isForbiddenCodePoint(cp: number): boolean {
  return (
    (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) ||
    (cp >= 0xd800 && cp <= 0xdfff) ||
    cp === 0xfffe ||
    cp === 0xffff ||
    cp > 0x10ffff
  );
}
function dropForbiddenReferences(xml: string): string {
  if (!xml.includes('&#')) return xml;
  return xml.replace(FORBIDDEN_REFERENCE, (whole, h?: string, d?: string) =>
    isForbiddenCodePoint(h !== undefined ? parseInt(h, 16) : Number(d)) ? '' : whole,
  );
}

const CHUNK = 64 * 1024;

/** A decoder fed the body piece by piece, so a caller can act on the first parameters before the rest. */
export interface MethodCallDecoder {
  /** The method name, once its element has closed. */
  readonly methodName: string | undefined;
  /** The parameters whose `<param>` has closed so far. */
  readonly params: readonly XmlRpcValue[];
  /** Decodes more of the document; throws the fault of a problem as soon as it is seen. */
  write(text: string): void;
  /** Ends the document: the call, or the fault of an incomplete one. */
  close(): MethodCall;
}

/** The longest character reference `dropForbiddenReferences` looks at (`&#x` + 8 digits + `;`). */
const MAX_REFERENCE = 12;

export function createMethodCallDecoder(limits: DecodeLimits = DEFAULT_DECODE_LIMITS): MethodCallDecoder {
  const parser = new SaxesParser({ position: true });
  const stack: Frame[] = [];
  let elements = 0;
  let methodName: string | undefined;
  let params: XmlRpcValue[] | undefined;
  let rootSeen = false;

  const top = () => stack[stack.length - 1];

  parser.on('error', (err) => {
    throw notWellFormed(err.message);
  });
  parser.on('doctype', () => {
    throw notWellFormed('a DOCTYPE is not allowed');
  });
  parser.on('opentagstart', (tag) => {
    if (++elements > limits.maxElements) throw notWellFormed(`more than ${limits.maxElements} elements`);
    if (stack.length + 1 > limits.maxDepth)
      throw notWellFormed(`nested deeper than ${limits.maxDepth} levels`);
    const name = tag.name;
    const parent = top();
    if (!parent) {
      if (name !== 'methodCall') throw invalid('the document is not a <methodCall>');
      rootSeen = true;
    } else {
      if (!CHILDREN[parent.name]?.includes(name))
        throw invalid(`<${name}> is not allowed in <${parent.name}>`);
      parent.children++;
      if (parent.name === 'value') {
        if (parent.typed) throw invalid('a <value> holds one value');
        if (parent.text.join('').trim() !== '') throw invalid('text beside a typed value');
        parent.typed = true;
      }
      if (parent.name === 'param' && parent.children > 1) throw invalid('a <param> holds one value');
      if (parent.name === 'member' && name === 'name' && parent.memberName !== undefined)
        throw invalid('a <member> has one <name>');
      if (parent.name === 'member' && name === 'value' && parent.hasMemberValue)
        throw invalid('a <member> has one <value>');
      if (parent.name === 'array' && parent.children > 1) throw invalid('an <array> has one <data>');
      if (parent.name === 'methodCall' && name === 'methodName' && methodName !== undefined)
        throw invalid('one <methodName>');
      if (parent.name === 'methodCall' && name === 'params' && params !== undefined)
        throw invalid('one <params>');
    }
    const frame: Frame = { name, text: [], textLength: 0, children: 0 };
    if (name === 'params' || name === 'data') frame.list = [];
    if (name === 'struct') frame.struct = new Map();
    stack.push(frame);
  });

  const onText = (text: string) => {
    const frame = top();
    if (!frame) return; // whitespace around the root; anything else is refused by saxes
    if (!TEXT_ELEMENTS.has(frame.name)) {
      if (text.trim() !== '') throw invalid(`text is not allowed in <${frame.name}>`);
      return;
    }
    if (frame.name === 'value' && frame.typed) {
      if (text.trim() !== '') throw invalid('text beside a typed value');
      return;
    }
    frame.textLength += text.length;
    const cap =
      frame.name === 'base64'
        ? Math.ceil((limits.maxBase64Bytes * 4) / 3) + 1024 * 1024
        : limits.maxStringLength;
    if (frame.textLength > cap) throw notWellFormed(`<${frame.name}> text too long`);
    frame.text.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  parser.on('closetag', () => {
    const frame = stack.pop()!;
    const parent = top();
    const text = frame.text.join('');
    let value: XmlRpcValue | undefined;
    switch (frame.name) {
      case 'methodName':
        if (text.trim() === '') throw invalid('empty <methodName>');
        methodName = text.trim();
        return;
      case 'params':
        params = frame.list!;
        return;
      case 'methodCall':
        return;
      case 'param':
        if (frame.value === undefined) throw invalid('a <param> without a <value>');
        parent!.list!.push(frame.value);
        return;
      case 'name':
        parent!.memberName = text;
        return;
      case 'member': {
        if (frame.memberName === undefined || !frame.hasMemberValue)
          throw invalid('a <member> needs <name> and <value>');
        // <nil/> counts as absent; a repeated name: the last one wins.
        if (frame.memberValue === null) parent!.struct!.delete(frame.memberName);
        else parent!.struct!.set(frame.memberName, frame.memberValue!);
        return;
      }
      case 'data':
        parent!.value = frame.list!;
        return;
      case 'array':
        if (frame.value === undefined) throw invalid('an <array> needs <data>');
        value = frame.value;
        break;
      case 'struct':
        value = frame.struct!;
        break;
      case 'value': {
        const v = frame.typed ? frame.value! : text;
        if (parent!.name === 'member') {
          parent!.memberValue = v;
          parent!.hasMemberValue = true;
        } else if (parent!.name === 'data') parent!.list!.push(v);
        else parent!.value = v;
        return;
      }
      default:
        value = scalarValue(frame.name, text, limits);
    }
    parent!.value = value;
  });

  // A reference cut by a piece's end waits for the next piece, so it is judged whole.
  let held = '';
  const feed = (text: string) => {
    for (let i = 0; i < text.length; i += CHUNK) parser.write(text.slice(i, i + CHUNK));
  };
  return {
    get methodName() {
      return methodName;
    },
    get params() {
      return params ?? (stack[1]?.name === 'params' ? stack[1].list! : []);
    },
    write(text: string) {
      let piece = held + text;
      held = '';
      const amp = piece.lastIndexOf('&', piece.length - 1);
      if (amp >= 0 && amp > piece.length - MAX_REFERENCE && !piece.includes(';', amp)) {
        held = piece.slice(amp);
        piece = piece.slice(0, amp);
      }
      feed(dropForbiddenReferences(piece));
    },
    close() {
      feed(dropForbiddenReferences(held));
      held = '';
      parser.close();
      if (!rootSeen) throw notWellFormed('no document');
      if (methodName === undefined) throw invalid('missing <methodName>');
      return { methodName, params: params ?? [] };
    },
  };
}

export function decodeMethodCall(xml: string, limits: DecodeLimits = DEFAULT_DECODE_LIMITS): MethodCall {
  const decoder = createMethodCallDecoder(limits);
  decoder.write(xml);
  return decoder.close();
}
