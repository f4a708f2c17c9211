// Event-fed copies are versioned by the event's time, so a late or redelivered event never
// overwrites a newer copy. Events of one entity that share a millisecond are ordered by kind: a
// deletion wins over an update, which wins over a publication (the order they happen in).
const RANK = { created: 0, published: 1, updated: 2, verified: 2, deleted: 3 } as const;
export type EventKind = keyof typeof RANK;

export function revisionOf(occurredAt: string, kind: EventKind): number {
  const ms = Date.parse(occurredAt);
  return (Number.isFinite(ms) ? ms : 0) * 4 + RANK[kind];
}

/** The time (ms) a revision stands for. */
export function revisionTime(rev: number): number {
  return Math.floor(rev / 4);
}
