// When to poll a feed next (docs/api/reader.md "Feed polling"): the interval follows the feed's posting rate
// within [min, max] (default 60 min until the rate is known), grows while nothing new arrives, backs
// off exponentially on failures, never runs before a Retry-After, and is jittered by ±10 %.

export interface IntervalBounds {
  minMinutes: number;
  maxMinutes: number;
  defaultMinutes: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The next interval in minutes after a successful fetch. `published` are the item dates of the
 * document (any order); half the average gap between the newest ten is the target, so a feed posting
 * daily is checked about twice a day.
 */
export function nextIntervalMinutes(
  bounds: IntervalBounds,
  previousMinutes: number,
  published: Date[],
  hadNewEntries: boolean,
  nowMs: number,
): number {
  const dates = published
    .map((d) => d.getTime())
    .filter((t) => Number.isFinite(t) && t <= nowMs)
    .sort((a, b) => b - a)
    .slice(0, 10);
  if (dates.length >= 2) {
    const averageGapMinutes = (dates[0]! - dates[dates.length - 1]!) / (dates.length - 1) / 60_000;
    // A feed whose newest item is old is quiet now, whatever its past rate.
    const quietMinutes = (nowMs - dates[0]!) / 60_000;
    return Math.round(
      clamp(Math.max(averageGapMinutes / 2, quietMinutes / 4), bounds.minMinutes, bounds.maxMinutes),
    );
  }
  const base = previousMinutes > 0 ? previousMinutes : bounds.defaultMinutes;
  return Math.round(clamp(hadNewEntries ? base : base * 1.5, bounds.minMinutes, bounds.maxMinutes));
}

/** After `errorCount` consecutive failures: the interval doubled per failure, up to the maximum. */
export function failureIntervalMinutes(
  bounds: IntervalBounds,
  intervalMinutes: number,
  errorCount: number,
): number {
  return clamp(intervalMinutes * 2 ** Math.min(errorCount, 10), bounds.minMinutes, bounds.maxMinutes);
}

/** ±10 % so that feeds added together do not stay in lockstep. */
export function jittered(minutes: number, random: () => number = Math.random): number {
  return minutes * 60_000 * (0.9 + random() * 0.2);
}

/** `Retry-After` as delay seconds or an HTTP-date, in milliseconds from `nowMs`; null when absent or bad. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | null {
  if (header === undefined) return null;
  const text = header.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}
