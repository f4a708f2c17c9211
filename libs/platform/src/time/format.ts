// Output forms of docs/api/conventions.md, Times. Every time a service emits goes through one of these.

/** A point in time: a Date, or whole microseconds since the epoch (reader times). */
export type Instant = Date | bigint;

const MICROS_PER_MS = 1000n;
const MICROS_PER_SECOND = 1_000_000n;

/** `2026-11-21T08:30:00.123456Z` — reader `published`, `created_at`, Link-header `since`. */
export function formatReaderTime(t: Instant): string {
  const micros = toMicros(t);
  const fraction = ((micros % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND;
  return `${isoSeconds(microsToDate(micros))}.${fraction.toString().padStart(6, '0')}Z`;
}

/** `2026-11-21T08:30:00+00:00` — JSON Feed, JF2, mf2, push and Microsub output. */
export function formatOffsetTime(t: Instant): string {
  return `${isoSeconds(toDate(t))}+00:00`;
}

/** `20261121T08:30:00` — every `dateTime.iso8601` we emit (always UTC, no zone). */
export function formatXmlRpcTime(t: Instant): string {
  const iso = isoSeconds(toDate(t));
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(10)}`;
}

/** `Sat, 21 Nov 2026 08:30:00 GMT` — `Date`, `Last-Modified`. */
export function formatHttpDate(t: Instant): string {
  return toDate(t).toUTCString();
}

export function toMicros(t: Instant): bigint {
  if (typeof t === 'bigint') return t;
  const ms = t.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Invalid Date');
  return BigInt(ms) * MICROS_PER_MS;
}

/** The Date of a microsecond instant, truncated (toward the past) to the millisecond. */
export function microsToDate(micros: bigint): Date {
  const ms = micros / MICROS_PER_MS - (micros % MICROS_PER_MS < 0n ? 1n : 0n);
  return new Date(Number(ms));
}

function toDate(t: Instant): Date {
  return typeof t === 'bigint' ? microsToDate(t) : t;
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC; throws RangeError for an invalid date. */
function isoSeconds(d: Date): string {
  const iso = d.toISOString();
  // Years outside 0000–9999 come out as ±YYYYYY, which none of our forms can carry.
  if (iso.length !== 24) throw new RangeError(`Year out of range: ${iso}`);
  return iso.slice(0, 19);
}
