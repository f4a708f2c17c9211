// Dates as feeds write them (docs/api/reader.md "Parsing"): RFC 822/1123 with missing, named, military
// or colon-separated zones and two-digit years, W3C-DTF (ISO 8601 profiles, a bare year or month
// included), `2020/1/10 14:33:00`; a date without a zone is UTC. Null when nothing parses.

const MONTHS: Record<string, number> = {
  jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11,
}; // prettier-ignore

/** Offsets in minutes of the zone names RFC 822 defines, and a few seen in the wild. */
const ZONES: Record<string, number> = {
  ut: 0, utc: 0, gmt: 0, z: 0, wet: 0, bst: 60, cet: 60, cest: 120, met: 60, mest: 120, eet: 120,
  eest: 180, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420,
  akst: -540, akdt: -480, hst: -600, ist: 330, jst: 540, kst: 540, aest: 600, aedt: 660, nzst: 720,
  nzdt: 780,
}; // prettier-ignore

function zoneOffset(zone: string | undefined): number | null {
  if (zone === undefined || zone === '') return 0;
  const z = zone.toLowerCase();
  const numeric = /^([+-])(\d{2}):?(\d{2})?$/.exec(z);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
    return numeric[1] === '-' ? -minutes : minutes;
  }
  if (z in ZONES) return ZONES[z]!;
  // RFC 2822 §4.3: military zones were defined with the wrong sign; they are to be read as +0000.
  if (/^[a-ik-z]$/.test(z)) return 0;
  const withPrefix = /^(?:gmt|utc)([+-]\d{1,2})(?::?(\d{2}))?$/.exec(z);
  if (withPrefix) {
    const hours = Number(withPrefix[1]);
    const minutes = Math.abs(hours) * 60 + Number(withPrefix[2] ?? 0);
    return hours < 0 ? -minutes : minutes;
  }
  return null;
}

function utc(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
  offsetMinutes = 0,
): Date | null {
  if (month < 0 || month > 11 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) return null;
  if (new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return null; // 31 February
  const time = Date.UTC(year, month, day, hour, minute, Math.min(second, 59), ms) - offsetMinutes * 60_000;
  const date = new Date(time);
  return Number.isNaN(time) || date.getUTCFullYear() < 1900 || date.getUTCFullYear() > 9999 ? null : date;
}

const W3CDTF =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T\s](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;
const RFC822 =
  /^(?:[a-z]{2,9},?\s+)?(\d{1,2})[\s-]+([a-z]{3})[a-z]*\.?[\s-]+(\d{2,4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*([a-z]{1,5}(?:[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{2}:?\d{2})?(?:\s*\([^)]{0,40}\))?$/i;
const SLASHED = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
/** `Monday, January 6, 2020 10:00 AM`-like and asctime are left to this shape: month name first. */
const MONTH_FIRST =
  /^(?:[a-z]{2,9},?\s+)?([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?\s*([a-z]{1,5}|[+-]\d{2}:?\d{2})?$/i;

export function parseFeedDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const s = value.trim().replace(/\s+/g, ' ');
  if (s === '' || s.length > 100) return null;
  let m = W3CDTF.exec(s);
  if (m) {
    const offset = zoneOffset(m[8]);
    if (offset === null) return null;
    const ms = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
    return utc(
      +m[1]!,
      m[2] ? +m[2] - 1 : 0,
      m[3] ? +m[3] : 1,
      +(m[4] ?? 0),
      +(m[5] ?? 0),
      +(m[6] ?? 0),
      ms,
      offset,
    );
  }
  m = RFC822.exec(s);
  if (m) {
    const month = MONTHS[m[2]!.toLowerCase()];
    const offset = zoneOffset(m[7]);
    if (month === undefined || offset === null) return null;
    let year = +m[3]!;
    if (m[3]!.length === 2) year += year < 50 ? 2000 : 1900;
    return utc(year, month, +m[1]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), 0, offset);
  }
  m = SLASHED.exec(s);
  if (m) return utc(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  m = MONTH_FIRST.exec(s);
  if (m) {
    const month = MONTHS[m[1]!.toLowerCase()];
    const offset = zoneOffset(m[8]);
    if (month === undefined || offset === null) return null;
    let hour = +(m[4] ?? 0);
    if (m[7]?.toLowerCase() === 'pm' && hour < 12) hour += 12;
    if (m[7]?.toLowerCase() === 'am' && hour === 12) hour = 0;
    return utc(+m[3]!, month, +m[2]!, hour, +(m[5] ?? 0), +(m[6] ?? 0), 0, offset);
  }
  return null;
}
