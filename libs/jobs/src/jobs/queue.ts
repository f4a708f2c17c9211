// A job queue in the service's own store (docs/adr/0003-jobs.md). Any number of instances (replicas, or
// several in one process) share one `jobs` collection: a job is claimed with one atomic
// findOneAndUpdate that sets a lease, the lease is renewed while the handler runs, and a job whose
// lease ran out (its worker died) is claimed again by whoever looks next.
import { randomBytes } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Store, type Update } from '@murmur/store';
import { systemClock, type Clock, type Logger } from '@murmur/core';
import { retryDelayMs } from './backoff.js';
import { IdlePoll, pollIntervals } from './idle-poll.js';
import type { EnqueueOptions, Job, JobHandler, JobQueueOptions, RegisterOptions } from './types.js';

/** The stored form: a job plus the token of its current claim, which only the claimant knows. */
type JobDoc = Job & { claimToken?: string };

interface Registration {
  handler: JobHandler<never>;
  concurrency: number;
  leaseMs: number;
  running: number;
}

interface ActiveRun {
  heartbeat: NodeJS.Timeout;
  settled: Promise<void>;
}

const DAY = 24 * 60 * 60_000;

export class JobQueue {
  private readonly jobs: Collection<JobDoc>;
  private readonly log: Logger;
  private readonly types = new Map<string, Registration>();
  private readonly active = new Map<string, ActiveRun>();
  private state: 'idle' | 'running' | 'stopping' | 'stopped' | 'crashed' = 'idle';
  private indexes: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private readonly clock: Clock;
  private readonly polls: IdlePoll;
  /** The earliest future runAt this queue wrote (a delayed job, a retry), in ms of its clock; Infinity if none. */
  private nextDueAt = Infinity;

  constructor(
    store: Store,
    private readonly options: JobQueueOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.jobs = store.collection<JobDoc>('jobs');
    this.log = options.logger.child({ service: options.service, component: 'jobs' });
    const { pollMs, idleMs } = pollIntervals(options, store.kind);
    this.polls = new IdlePoll(pollMs, idleMs);
  }

  register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions = {}): void {
    if (this.types.has(type)) throw new Error(`a handler for job type ${type} is already registered`);
    const concurrency = options.concurrency ?? 1;
    const leaseMs = options.leaseMs ?? 60_000;
    if (!(Number.isInteger(concurrency) && concurrency >= 1))
      throw new Error('concurrency must be an integer ≥ 1');
    if (!(leaseMs >= 30)) throw new Error('leaseMs must be at least 30');
    this.types.set(type, { handler: handler as JobHandler<never>, concurrency, leaseMs, running: 0 });
    this.wake();
  }

  /** Adds a job (or, with a `key` already queued or running, returns that job). */
  async enqueue<P>(type: string, payload: P, options: EnqueueOptions = {}): Promise<Job<P>> {
    const maxAttempts = options.maxAttempts ?? 5;
    if (!(Number.isInteger(maxAttempts) && maxAttempts >= 1))
      throw new Error('maxAttempts must be an integer ≥ 1');
    await this.ensureIndexes();
    for (let attempt = 1; ; attempt++) {
      if (options.key !== undefined) {
        const existing = await this.jobs.findOne({ key: options.key });
        if (existing) return publicJob(existing) as Job<P>;
      }
      const now = this.clock.now();
      const job: JobDoc = {
        _id: randomBytes(12).toString('base64url'),
        type,
        payload,
        status: 'queued',
        runAt: options.runAt ?? now,
        attempts: 0,
        maxAttempts,
        leaseUntil: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
        ...(options.key === undefined ? {} : { key: options.key }),
      };
      try {
        const stored = await this.jobs.insertOne(job);
        this.noteDue(job.runAt);
        this.wake();
        return publicJob(stored) as Job<P>;
      } catch (err) {
        // Another enqueue with the same key won the race; look again (it may even have finished).
        if (!(err instanceof DuplicateKeyError) || options.key === undefined || attempt >= 3) throw err;
      }
    }
  }

  /** Starts claiming jobs of the registered types. Idempotent. */
  async start(): Promise<void> {
    if (this.state === 'running') return;
    await this.ensureIndexes();
    this.state = 'running';
    this.wake();
  }

  /**
   * Stops claiming, then waits (up to `timeoutMs`) for running handlers to finish. Handlers still
   * running after that keep their jobs only until the lease runs out; another worker then retries them.
   */
  async stop(timeoutMs = this.options.stopTimeoutMs ?? 30_000): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'stopping';
    clearTimeout(this.timer);
    await this.pumping;
    const runs = [...this.active.values()];
    const finished = await settleWithin(
      runs.map((r) => r.settled),
      timeoutMs,
    );
    if (!finished) {
      this.log.warn(
        { running: this.active.size },
        'stopped with handlers still running; their leases will lapse',
      );
      for (const run of this.active.values()) clearInterval(run.heartbeat);
    }
    this.state = 'stopped';
  }

  /**
   * For tests: behave as if the process died this instant. Claims and heartbeats stop, nothing is
   * written back, and whatever the running handlers do later is ignored.
   */
  simulateCrash(): void {
    this.state = 'crashed';
    clearTimeout(this.timer);
    for (const run of this.active.values()) clearInterval(run.heartbeat);
    this.active.clear();
  }

  private ensureIndexes(): Promise<void> {
    this.indexes ??= (async () => {
      // Claims ask for one status and type at a time and sort on the third field, so each claim is
      // one index range read in order (both adapters stop at the first match).
      await this.jobs.createIndex({ status: 1, type: 1, runAt: 1 });
      await this.jobs.createIndex({ status: 1, type: 1, leaseUntil: 1 });
      // Only queued and running jobs hold a key: the others are not in this index at all.
      await this.jobs.createIndex({ key: 1 }, { unique: true, sparse: true });
      // Only done and dead jobs have expiresAt. Sparse since this release: both adapters replace the
      // index declared without it (store/mongodb.ts createIndex).
      await this.jobs.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, sparse: true });
    })().catch((err: unknown) => {
      this.indexes = undefined;
      throw err;
    });
    return this.indexes;
  }

  /** A job this queue wrote will be due at `runAt`: the queue looks then, however idle it has been. */
  private noteDue(runAt: Date): void {
    const at = runAt.getTime();
    if (at > this.clock.now().getTime() && at < this.nextDueAt) this.nextDueAt = at;
  }

  /**
   * Looks for work now; coalesces with a look already under way. A wake from this process (an enqueue,
   * a handler that finished, a start) counts as work: the next look comes after the poll interval.
   */
  private wake(fromTimer = false): void {
    if (this.state !== 'running') return;
    if (!fromTimer) this.polls.busy();
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.pumping = this.pump().then((claimed) => {
      this.pumping = undefined;
      if (this.state !== 'running') return;
      if (this.pumpAgain) return this.wake();
      if (claimed) this.polls.busy();
      else this.polls.idle();
      const dueIn = this.nextDueAt - this.clock.now().getTime();
      this.timer = setTimeout(() => this.wake(true), this.polls.nextMs(dueIn));
      this.timer.unref();
    });
  }

  /** Claims what it can; true if it claimed a job (or could not tell: a failed claim counts as work). */
  private async pump(): Promise<boolean> {
    this.pumpAgain = false;
    // Whatever was known to fall due by now is claimed in this look (or a later one, if all are busy).
    if (this.nextDueAt <= this.clock.now().getTime()) this.nextDueAt = Infinity;
    let claimed = false;
    try {
      for (const [type, reg] of this.types) {
        while (this.state === 'running' && reg.running < reg.concurrency) {
          const job = await this.claim(type, reg);
          if (!job) break;
          claimed = true;
          this.run(job, reg);
        }
      }
    } catch (err) {
      this.log.error({ err }, 'could not claim jobs; will retry at the next poll');
      return true;
    }
    return claimed;
  }

  /** A due queued job first; else one whose worker stopped renewing its lease. */
  private async claim(type: string, reg: Registration): Promise<JobDoc | null> {
    const now = this.clock.now();
    const take: Update = {
      $set: {
        status: 'running',
        leaseUntil: new Date(now.getTime() + reg.leaseMs),
        claimToken: randomBytes(12).toString('base64url'),
        updatedAt: now,
      },
      $inc: { attempts: 1 },
    };
    const due = await this.jobs.findOneAndUpdate({ status: 'queued', type, runAt: { $lte: now } }, take, {
      sort: { runAt: 1 },
    });
    if (due) return due;
    const orphan = await this.jobs.findOneAndUpdate(
      { status: 'running', type, leaseUntil: { $lt: now } },
      take,
      {
        sort: { leaseUntil: 1 },
      },
    );
    if (orphan)
      this.log.warn(
        { jobId: orphan._id, type, attempt: orphan.attempts },
        'took over a job whose lease lapsed',
      );
    return orphan;
  }

  private run(job: JobDoc, reg: Registration): void {
    const token = job.claimToken!;
    reg.running += 1;
    const heartbeat = setInterval(() => void this.renew(job, token, reg.leaseMs, heartbeat), reg.leaseMs / 3);
    heartbeat.unref();
    // Registered before the handler starts: execute() checks it to tell a crash from a normal end.
    const active: ActiveRun = { heartbeat, settled: Promise.resolve() };
    this.active.set(token, active);
    active.settled = this.execute(job, token, reg)
      .catch((err: unknown) =>
        this.log.error({ err, jobId: job._id }, 'could not record the outcome of a job'),
      )
      .finally(() => {
        clearInterval(heartbeat);
        reg.running -= 1;
        this.active.delete(token);
        this.wake();
      });
  }

  private async execute(job: JobDoc, token: string, reg: Registration): Promise<void> {
    if (job.attempts > job.maxAttempts) {
      // The last allowed attempt's worker died mid-job: there is no attempt left to give it.
      return this.finish(job, token, { ok: false, error: 'lease lapsed on the last attempt (worker lost)' });
    }
    let outcome: Outcome;
    try {
      await reg.handler(job.payload as never, publicJob(job) as Job<never>);
      outcome = { ok: true };
    } catch (err) {
      outcome = { ok: false, error: describeError(err), retryAfterMs: retryAfterOf(err) };
    }
    if (!this.active.has(token)) return; // crashed meanwhile: a dead process records nothing
    await this.finish(job, token, outcome);
  }

  private async finish(job: JobDoc, token: string, outcome: Outcome) {
    const now = this.clock.now();
    const at = (ms: number) => new Date(now.getTime() + ms);
    const context = { jobId: job._id, type: job.type, attempt: job.attempts };
    let update: Update;
    if (outcome.ok) {
      const keep = this.options.doneRetentionMs ?? 7 * DAY;
      update = {
        $set: { status: 'done', finishedAt: now, expiresAt: at(keep), leaseUntil: null, updatedAt: now },
      };
    } else if (job.attempts >= job.maxAttempts) {
      this.log.error({ ...context, error: outcome.error }, 'job failed for the last time; it is dead');
      const keep = this.options.deadRetentionMs ?? 30 * DAY;
      update = {
        $set: {
          status: 'dead',
          lastError: outcome.error,
          finishedAt: now,
          expiresAt: at(keep),
          leaseUntil: null,
          updatedAt: now,
        },
      };
    } else {
      const maxMs = this.options.backoffMaxMs ?? 3_600_000;
      // A handler may ask for a longer wait (an upstream's Retry-After), never beyond the maximum.
      const delay = Math.max(
        retryDelayMs(job.attempts, this.options.backoffBaseMs ?? 5000, maxMs),
        Math.min(outcome.retryAfterMs ?? 0, maxMs),
      );
      this.log.warn({ ...context, error: outcome.error, retryInMs: delay }, 'job failed; will retry');
      const retryAt = at(delay);
      this.noteDue(retryAt);
      update = {
        $set: {
          status: 'queued',
          runAt: retryAt,
          lastError: outcome.error,
          leaseUntil: null,
          updatedAt: now,
        },
      };
    }
    // Finished jobs give their key back, so the same work can be enqueued again.
    const release = outcome.ok || job.attempts >= job.maxAttempts ? { key: '' } : {};
    update.$unset = { claimToken: '', ...release };
    const r = await this.jobs.updateOne({ _id: job._id, claimToken: token }, update);
    if (r.matchedCount === 0)
      this.log.warn(context, 'job outcome dropped: its lease lapsed and another worker took it');
  }

  private async renew(job: JobDoc, token: string, leaseMs: number, heartbeat: NodeJS.Timeout): Promise<void> {
    try {
      const now = this.clock.nowMs();
      const r = await this.jobs.updateOne(
        { _id: job._id, claimToken: token, status: 'running' },
        { $set: { leaseUntil: new Date(now + leaseMs), updatedAt: new Date(now) } },
      );
      if (r.matchedCount === 0) {
        clearInterval(heartbeat);
        this.log.warn({ jobId: job._id, type: job.type }, 'lost the lease of a running job');
      }
    } catch (err) {
      this.log.warn({ err, jobId: job._id }, 'could not renew a job lease; will try again');
    }
  }
}

function publicJob(doc: JobDoc): Job {
  const { claimToken: _claimToken, ...job } = doc;
  return job;
}

type Outcome = { ok: true } | { ok: false; error: string; retryAfterMs?: number | undefined };

/** The `retryAfterMs` a failed handler's error carries (a finite number > 0), if any. */
function retryAfterOf(err: unknown): number | undefined {
  const value = (err as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

function describeError(err: unknown): string {
  const text =
    err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** True when every promise settled within `ms`. */
async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([Promise.allSettled(promises).then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
