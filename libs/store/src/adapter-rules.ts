// What every adapter of the port shares, so that both give the same answers: document ids, the
// shape tests of filter values, index names, the refusal of `undefined` in filters, the logger.
import { randomBytes } from 'node:crypto';
import type { Filter } from './port.js';

export type Plain = Record<string, unknown>;

/** A fresh document id: 16 URL-safe characters, the same shape in both adapters. */
export function newDocumentId(): string {
  return randomBytes(12).toString('base64url');
}

export function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** `{$gt: 1, $lt: 5}` as opposed to an embedded document used for equality. */
export function isOperatorObject(value: unknown): value is Plain {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** The one logging call the store makes (a pino logger fits). */
export interface StoreLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

/** Both adapters name an index this way when the caller gives no name, so error reports agree. */
export function defaultIndexName(fields: Record<string, 1 | -1>): string {
  return Object.keys(fields).join('_');
}

/**
 * Refuses `undefined` anywhere in a filter. MongoDB would drop the field (matching everything) or
 * compare with null depending on driver options, and either one turns a missing variable into a query
 * over other users' data. Both adapters call this.
 */
export function assertDefinedFilter(filter: Filter, path = 'filter'): void {
  for (const [key, value] of Object.entries(filter)) {
    const where = `${path}.${key}`;
    if (value === undefined) throw new TypeError(`${where} is undefined`);
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        if (v === undefined) throw new TypeError(`${where}[${i}] is undefined`);
        if (isPlainObject(v)) assertDefinedFilter(v, `${where}[${i}]`);
      });
    } else if (isPlainObject(value)) {
      assertDefinedFilter(value, where);
    }
  }
}
