// How long a poller (the job queue, the outbox relay) waits before it looks at its store again.
//
// Both look twice a second by default, for work that reached the store without waking them: a job or an
// event recorded by another replica, a job whose retry or delay fell due, a lease that lapsed. On the
// embedded store nothing outside this process writes the store (its directory is locked to the process:
// store/embedded-lock.ts), and every enqueue and publish in the process wakes its
// poller at once; only timed work is left to find. The single process runs eight services, each with a
// queue and a relay: idle, their looks cost 28–29 ms of CPU a second against 9–10 for a service alone
// (measured 2026-11-29 on a 2-core AMD EPYC VM; docs/adr/0003-jobs.md, revision of that day). So while
// looks find nothing, the wait doubles, up to the idle interval; the first look that finds work, and
// every wake, bring it back to the poll interval.

/** The embedded store's idle interval, in polls: 2 s at the default 500 ms. */
export const IDLE_POLLS = 4;

/** The default poll interval of the job queue and the outbox relay. */
export const DEFAULT_POLL_MS = 500;

/**
 * A poller's intervals from its options. The idle interval is the one given; else, with the default poll
 * interval on the embedded store, IDLE_POLLS polls; else one poll (no stretching): on MongoDB another
 * replica may have written, and a poll interval chosen by hand (tests, an operator tuning latency) is kept.
 */
export function pollIntervals(
  options: { pollIntervalMs?: number | undefined; idlePollIntervalMs?: number | undefined },
  storeKind: 'embedded' | 'mongodb',
): { pollMs: number; idleMs: number } {
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
  if (options.idlePollIntervalMs !== undefined)
    return { pollMs, idleMs: Math.max(options.idlePollIntervalMs, pollMs) };
  const stretch = storeKind === 'embedded' && options.pollIntervalMs === undefined;
  return { pollMs, idleMs: stretch ? pollMs * IDLE_POLLS : pollMs };
}

/** How long after known work falls due the poller looks for it. */
const DUE_MARGIN_MS = 5;

export class IdlePoll {
  private waitMs: number;

  constructor(
    private readonly pollMs: number,
    private readonly idleMs: number,
  ) {
    this.waitMs = pollMs;
  }

  /** A look found work, or something woke the poller: the next look comes after the poll interval. */
  busy(): void {
    this.waitMs = this.pollMs;
  }

  /** A look found nothing: the wait after the next one doubles, up to the idle interval. */
  idle(): void {
    this.waitMs = Math.min(this.waitMs * 2, this.idleMs);
  }

  /**
   * The wait before the next look, ±10 % so that replicas started together do not look in lockstep;
   * never beyond `dueInMs` (work known to fall due then) when given.
   */
  nextMs(dueInMs = Infinity): number {
    const wait = this.waitMs * (0.9 + Math.random() * 0.2);
    // Just after the work falls due, never before: a look that came early would find nothing.
    return dueInMs < wait ? Math.max(0, dueInMs) + DUE_MARGIN_MS : wait;
  }
}
