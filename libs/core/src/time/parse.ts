// Input forms of docs/api/conventions.md, Times (`since`, XML-RPC dates, feed and h-entry dates, imports). Strict on
// purpose: what is not listed there is invalid, and callers turn null into 400 / fault −32602.

export interface ParsedTimestamp {
  /** Milliseconds since the epoch, truncated. */
  ms: number;
  /** Microseconds since the epoch; finer fractions are truncated, never rounded. */
  micros: bigint;
}

const ZONE = '(Z|[+-]\\d{2}:?\\d{2})';
const FRACTION = '(?:\\.(\\d+))?';
// YYYY-MM-DD, optionally THH:MM, :SS, .fraction, zone.
const EXTENDED = new RegExp(
  `^(\\d{4})-(\\d{2})-(\\d{2})(?:T(\\d{2}):(\\d{2})(?::(\\d{2})${FRACTION})?${ZONE}?)?$`,
);
// YYYYMMDDTHH:MM:SS or YYYYMMDDTHHMMSS (both colons or neither), optionally .fraction and zone.
const BASIC = new RegExp(`^(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(:?)(\\d{2})\\5(\\d{2})${FRACTION}${ZONE}?$`);

export function parseTimestamp(text: string): ParsedTimestamp | null {
  let parts: Parts;
  let m = EXTENDED.exec(text);
  if (m) {
    parts = {
      year: m[1],
      month: m[2],
      day: m[3],
      hour: m[4],
      minute: m[5],
      second: m[6],
      fraction: m[7],
      zone: m[8],
    };
  } else {
    m = BASIC.exec(text);
    if (!m) return null;
    parts = {
      year: m[1],
      month: m[2],
      day: m[3],
      hour: m[4],
      minute: m[6],
      second: m[7],
      fraction: m[8],
      zone: m[9],
    };
  }
  return fromParts(parts);
}

interface Parts {
  year: string | undefined;
  month: string | undefined;
  day: string | undefined;
  hour: string | undefined;
  minute: string | undefined;
  second: string | undefined;
  fraction: string | undefined;
  zone: string | undefined;
}

function fromParts(p: Parts): ParsedTimestamp | null {
  const year = Number(p.year);
  const month = Number(p.month);
  const day = Number(p.day);
  const hour = Number(p.hour ?? 0);
  const minute = Number(p.minute ?? 0);
  const second = Number(p.second ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = zoneOffsetMinutes(p.zone);
  if (offsetMinutes === null) return null;

  // Date.UTC maps years 0–99 to 1900–1999, so the year is set separately.
  const d = new Date(Date.UTC(2000, 0, 1, hour, minute, second));
  d.setUTCFullYear(year, month - 1, day);
  const wholeSecondMs = d.getTime() - offsetMinutes * 60_000;
  const fractionMicros = BigInt((p.fraction ?? '').slice(0, 6).padEnd(6, '0'));
  const micros = BigInt(wholeSecondMs) * 1000n + fractionMicros;
  return { ms: wholeSecondMs + Number(fractionMicros / 1000n), micros };
}

function zoneOffsetMinutes(zone: string | undefined): number | null {
  if (zone === undefined || zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(-2));
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
