// Order-preserving index keys for the embedded adapter (docs/adr/0008-embedded-store-durability.md).
// Every index is kept as one string per document (or one per array element combination) that sorts
// like the tuple of its fields: a type tag, then the value encoded so that plain string comparison
// orders it. A prefix of the tuple is then a prefix of the string, so "these fields equal, the next
// one in a range" is one contiguous range of keys.
import { encodeKey } from './values.js';

/** Sorts after every tag character, so `prefix + HIGH` bounds every key that starts with `prefix`. */
export const HIGH = '\uffff';

const TAG = { null: 'A', number: 'B', string: 'C', boolean: 'D', date: 'E', other: 'F' } as const;

/** The tag a range over values of this type stays within, or undefined for types that do not range. */
export function rangeTag(value: unknown): string | undefined {
  if (typeof value === 'number' && !Number.isNaN(value)) return TAG.number;
  if (value instanceof Date) return TAG.date;
  return undefined;
}

/** One tuple component. Values equal to MongoDB encode equally (`0` and `-0`, `null` and missing). */
export function encodeComponent(value: unknown): string {
  if (value === undefined || value === null) return TAG.null;
  if (typeof value === 'number') return TAG.number + sortableNumber(value);
  if (typeof value === 'string') return TAG.string + escaped(value);
  if (typeof value === 'boolean') return TAG.boolean + (value ? '1' : '0');
  if (value instanceof Date) return TAG.date + sortableNumber(value.getTime());
  // Embedded documents and empty arrays: only ever matched for equality, never narrowed by range.
  return TAG.other + escaped(encodeKey(value));
}

/** A string terminated by \u0000, with \u0000 and \u0001 escaped so that the terminator sorts first. */
function escaped(s: string): string {
  return s.replaceAll('\u0001', '\u0001\u0002').replaceAll('\u0000', '\u0001\u0001') + '\u0000';
}

/** 16 hex digits whose text order is the numeric order of the double (NaN first, like MongoDB). */
function sortableNumber(n: number): string {
  if (Number.isNaN(n)) return '0000000000000000';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n === 0 ? 0 : n);
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}
