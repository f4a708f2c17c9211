// Reading method parameters and struct members the way real clients send them (docs/api/publishing.md "What real
// clients do"): ids as <int> or digit strings, untyped values as strings, <nil/> as absent. A parameter of
// the wrong kind is fault −32602, raised before the method does anything.
import { parseTimestamp } from '@murmur/core';
import { FAULT, XmlRpcFault, isStruct, type XmlRpcStruct, type XmlRpcValue } from './values.js';

export const badParam = (message: string) => new XmlRpcFault(FAULT.badParams, message);

const INT32_MAX = 2 ** 31 - 1;

export function asString(value: XmlRpcValue | undefined, name: string): string {
  if (typeof value === 'string') return value;
  // Some clients type a numeric string (a site id, an app key) as <int>.
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw badParam(`${name}: must be a string`);
}

/** A post, page or site id: an int, or a string of digits, within the 32-bit range. */
export function asId(value: XmlRpcValue | undefined, name: string): number {
  let n: number | undefined;
  if (typeof value === 'number' && Number.isInteger(value)) n = value;
  else if (typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value)) n = Number(value);
  if (n === undefined || n < 1 || n > INT32_MAX) throw badParam(`${name}: must be a positive integer id`);
  return n;
}

/** A site id parameter: a string or an int (`0`, an id, or a username). */
export function asSiteRef(value: XmlRpcValue | undefined): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw badParam('blog_id: must be a string or an int');
}

export function asStruct(value: XmlRpcValue | undefined, name: string): XmlRpcStruct {
  if (!isStruct(value)) throw badParam(`${name}: must be a struct`);
  return value;
}

/** An optional count or offset: absent or nil → the default; larger than `max` → clamped; negative → fault. */
export function asCount(value: XmlRpcValue | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  let n: number | undefined;
  if (typeof value === 'number' && Number.isInteger(value)) n = value;
  else if (typeof value === 'string' && /^\s*-?\d{1,10}\s*$/.test(value)) n = Number(value);
  if (n === undefined || n < 0) throw badParam(`${name}: must be a non-negative integer`);
  return Math.min(n, max);
}

/** An optional boolean (also 0/1 and "true"/"false" strings, which some clients send); absent → undefined. */
export function asOptionalBoolean(value: XmlRpcValue | undefined, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string' && /^(true|false|0|1)$/i.test(value.trim()))
    return /^(true|1)$/i.test(value.trim());
  throw badParam(`${name}: must be a boolean`);
}

/** A struct member that must be a string when present. */
export function optionalString(struct: XmlRpcStruct, member: string): string | undefined {
  const value = struct.get(member);
  if (value === undefined || value === null) return undefined;
  return asString(value, member);
}

/** A struct member that must be present (and a string). */
export function requiredString(struct: XmlRpcStruct, member: string): string {
  const value = optionalString(struct, member);
  if (value === undefined) throw badParam(`${member}: is required`);
  return value;
}

/** A date given as dateTime.iso8601 or as a string in one of the accepted forms (no zone = UTC). */
export function asDate(value: XmlRpcValue, member: string): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string') {
    const parsed = parseTimestamp(value.trim());
    if (parsed) return new Date(parsed.ms);
  }
  throw badParam(`${member}: must be a date`);
}

/** The first present of `members`, as a date. */
export function firstDate(struct: XmlRpcStruct, members: readonly string[]): Date | undefined {
  for (const member of members) {
    const value = struct.get(member);
    if (value !== undefined && value !== null) return asDate(value, member);
  }
  return undefined;
}

export function asBytes(value: XmlRpcValue | undefined, name: string): Buffer {
  if (Buffer.isBuffer(value)) return value;
  // Some clients send base64 as a plain string.
  if (typeof value === 'string') {
    const t = value.replace(/[\t\n\r ]+/g, '');
    if (/^[A-Za-z0-9+/]*={0,2}$/.test(t) && t.length % 4 !== 1) return Buffer.from(t, 'base64');
  }
  throw badParam(`${name}: must be base64`);
}
