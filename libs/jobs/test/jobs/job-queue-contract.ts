// The job queue's behaviour, on any store adapter. Leases, polls and backoff are short so the suite
// stays fast; "two workers" are two JobQueue instances on two store connections to one database.
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { JobQueue, type Job, type JobQueueOptions } from '../../src/jobs/index.js';
import type { Store } from '@murmur/store';
import { TestClock } from '@murmur/testing';

export interface JobStoreHarness {
  /** A new connection to the test's database. */
  connect(): Promise<Store>;
  dispose(): Promise<void>;
}

const FAST: Omit<JobQueueOptions, 'logger'> = { service: 'test', pollIntervalMs: 20, backoffBaseMs: 60 };
// Short enough for a fast suite, long enough that a busy CI machine still renews leases in time.
const LEASE_MS = 300;

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function defineJobQueueTests(makeHarness: () => JobStoreHarness): void {
  let harness: JobStoreHarness;
  let stores: Store[];
  let queues: JobQueue[];
  let releaseHung: () => void;
  let hung: Promise<void>;

  const store = async () => {
    const s = await harness.connect();
    stores.push(s);
    return s;
  };
  const queue = async (options: Partial<JobQueueOptions> = {}, on?: Store) => {
    const q = new JobQueue(on ?? (await store()), { ...FAST, logger: pino({ level: 'silent' }), ...options });
    queues.push(q);
    return q;
  };
  const jobsIn = (s: Store) => s.collection<Job>('jobs');
  const jobById = async (s: Store, id: string) => (await jobsIn(s).findOne({ _id: id }))!;

  beforeEach(() => {
    harness = makeHarness();
    stores = [];
    queues = [];
    hung = new Promise((resolve) => (releaseHung = resolve));
  });

  afterEach(async () => {
    releaseHung();
    await Promise.all(queues.map((q) => q.stop(1000)));
    await Promise.all(stores.map((s) => s.close()));
    await harness.dispose();
  });

  it('runs a job and keeps it as done, to be deleted after the retention time', async () => {
    const q = await queue();
    const seen: Array<{ payload: unknown; attempts: number }> = [];
    q.register('echo', async (payload, job) => {
      seen.push({ payload, attempts: job.attempts });
    });
    await q.start();
    const job = await q.enqueue('echo', { n: 1 });
    expect(job).toMatchObject({
      type: 'echo',
      status: 'queued',
      attempts: 0,
      maxAttempts: 5,
      lastError: null,
    });
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([{ payload: { n: 1 }, attempts: 1 }]);
    const s = stores[0]!;
    await waitFor(async () => (await jobById(s, job._id)).status === 'done');
    const done = await jobById(s, job._id);
    expect(done.attempts).toBe(1);
    expect(done.finishedAt).toBeInstanceOf(Date);
    const kept = done.expiresAt!.getTime() - done.finishedAt!.getTime();
    expect(kept).toBe(7 * 24 * 60 * 60_000);
  });

  it('waits at least the retryAfterMs of a failed handler’s error, capped at the maximum backoff', async () => {
    const clock = new TestClock(Date.now());
    const s = await store();
    const q = await queue({ clock, backoffBaseMs: 10, backoffMaxMs: 60_000 }, s);
    q.register('upstream', async () => {
      throw Object.assign(new Error('busy'), { retryAfterMs: 30_000 });
    });
    q.register('impatient', async () => {
      throw Object.assign(new Error('very busy'), { retryAfterMs: 3_600_000 });
    });
    await q.start();
    const a = await q.enqueue('upstream', {});
    const b = await q.enqueue('impatient', {});
    await waitFor(
      async () => (await jobById(s, a._id)).attempts === 1 && (await jobById(s, a._id)).status === 'queued',
    );
    await waitFor(
      async () => (await jobById(s, b._id)).attempts === 1 && (await jobById(s, b._id)).status === 'queued',
    );
    expect((await jobById(s, a._id)).runAt.getTime()).toBe(clock.nowMs() + 30_000);
    expect((await jobById(s, b._id)).runAt.getTime()).toBe(clock.nowMs() + 60_000);
  });

  it('reads time from its clock: a job due in an hour runs once that clock has moved', async () => {
    const clock = new TestClock(Date.now());
    const q = await queue({ clock });
    let runs = 0;
    q.register('later', async () => {
      runs++;
    });
    await q.start();
    const job = await q.enqueue('later', {}, { runAt: new Date(clock.nowMs() + 3_600_000) });
    expect(job.createdAt.getTime()).toBe(clock.nowMs());
    await sleep(150);
    expect(runs).toBe(0);
    clock.advance(3_600_000);
    await waitFor(() => runs === 1);
  });

  it('does not run a job before its runAt', async () => {
    const q = await queue();
    let ranAt = 0;
    q.register('later', async () => {
      ranAt = Date.now();
    });
    await q.start();
    // A second ahead: the queue polls every 20 ms, so 150 ms after the enqueue it has looked several
    // times. With 300 ms the enqueue itself took long enough once, on a loaded CI machine, for the job
    // to be rightly due before the check.
    const runAt = new Date(Date.now() + 1000);
    await q.enqueue('later', {}, { runAt });
    await sleep(150);
    expect(ranAt).toBe(0);
    await waitFor(() => ranAt > 0);
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime());
  });

  it('retries a failed job after a growing, jittered backoff, then succeeds', async () => {
    // A backoff long enough to observe the job waiting between attempts.
    const q = await queue({ backoffBaseMs: 300 });
    const attempts: Array<{ at: number; attempt: number }> = [];
    q.register('flaky', async (_payload, job) => {
      attempts.push({ at: Date.now(), attempt: job.attempts });
      if (job.attempts < 3) throw new Error(`boom ${job.attempts}`);
    });
    await q.start();
    const job = await q.enqueue('flaky', {});
    const s = stores[0]!;
    await waitFor(async () => (await jobById(s, job._id)).lastError === 'boom 1');
    const waiting = await jobById(s, job._id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, leaseUntil: null });
    expect(waiting.runAt.getTime()).toBeGreaterThan(waiting.updatedAt.getTime());
    await waitFor(async () => (await jobById(s, job._id)).status === 'done');
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(300 / 2 - 5);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(600 / 2 - 5);
    expect(await jobById(s, job._id)).toMatchObject({ status: 'done', attempts: 3, lastError: 'boom 2' });
  });

  it('marks a job dead after maxAttempts, keeping the last error (also when the handler throws at once)', async () => {
    const q = await queue({ backoffBaseMs: 10 });
    let calls = 0;
    // Not async: a handler that throws before returning a promise fails like any other.
    q.register('doomed', () => {
      calls += 1;
      throw new TypeError(`nope ${calls}`);
    });
    await q.start();
    const job = await q.enqueue('doomed', {}, { maxAttempts: 3 });
    const s = stores[0]!;
    await waitFor(async () => (await jobById(s, job._id)).status === 'dead');
    await sleep(100);
    expect(calls).toBe(3);
    const dead = await jobById(s, job._id);
    expect(dead).toMatchObject({
      status: 'dead',
      attempts: 3,
      lastError: 'TypeError: nope 3',
      leaseUntil: null,
    });
    expect(dead.expiresAt!.getTime() - dead.finishedAt!.getTime()).toBe(30 * 24 * 60 * 60_000);
  });

  it('dedupes by key while a job is queued or running, and accepts the key again once it is done', async () => {
    const q = await queue();
    const first = await q.enqueue('poll', { feed: 1 }, { key: 'feed:1' });
    const again = await q.enqueue('poll', { feed: 1, other: true }, { key: 'feed:1' });
    const racing = await Promise.all(
      Array.from({ length: 10 }, () => q.enqueue('poll', {}, { key: 'feed:2' })),
    );
    expect(again._id).toBe(first._id);
    expect(again.payload).toEqual({ feed: 1 });
    expect(new Set(racing.map((j) => j._id)).size).toBe(1);
    const s = stores[0]!;
    expect(await jobsIn(s).countDocuments({})).toBe(2);

    let runs = 0;
    q.register('poll', async () => {
      runs += 1;
    });
    await q.start();
    await waitFor(() => runs === 2);
    await waitFor(async () => (await jobsIn(s).countDocuments({ status: 'done' })) === 2);
    const next = await q.enqueue('poll', { feed: 1 }, { key: 'feed:1' });
    expect(next._id).not.toBe(first._id);
  });

  it('never runs more handlers of a type at once than its concurrency', async () => {
    const q = await queue();
    let current = 0;
    let peak = 0;
    let finished = 0;
    q.register(
      'slow',
      async () => {
        current += 1;
        peak = Math.max(peak, current);
        await sleep(50);
        current -= 1;
        finished += 1;
      },
      { concurrency: 2 },
    );
    for (let i = 0; i < 6; i++) await q.enqueue('slow', { i });
    await q.start();
    await waitFor(() => finished === 6);
    expect(peak).toBe(2);
  });

  it('leaves job types it has no handler for to other queues', async () => {
    const q = await queue();
    q.register('mine', async () => undefined);
    await q.start();
    const foreign = await q.enqueue('theirs', {});
    const mine = await q.enqueue('mine', {});
    const s = stores[0]!;
    await waitFor(async () => (await jobById(s, mine._id)).status === 'done');
    await sleep(100);
    expect(await jobById(s, foreign._id)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('two instances on one database share the work and run each job once', async () => {
    const [a, b] = [await queue(), await queue()];
    const ranBy: Record<string, string[]> = {};
    for (const [name, q] of [
      ['a', a],
      ['b', b],
    ] as const) {
      q.register(
        'work',
        async (_payload, job) => {
          (ranBy[job._id] ??= []).push(name);
          await sleep(30);
        },
        { concurrency: 2 },
      );
    }
    await Promise.all([a.start(), b.start()]);
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push((await a.enqueue('work', { i }))._id);
    await waitFor(async () => (await jobsIn(stores[0]!).countDocuments({ status: 'done' })) === 20);
    expect(Object.keys(ranBy).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(ranBy[id]).toHaveLength(1);
    const workers = new Set(Object.values(ranBy).flat());
    expect(workers).toEqual(new Set(['a', 'b']));
  });

  it('renews the lease of a long job so that no other worker takes it', async () => {
    const [a, b] = [await queue(), await queue()];
    let runs = 0;
    let done = false;
    const slow = async () => {
      runs += 1;
      await sleep(LEASE_MS * 3);
      done = true;
    };
    a.register('long', slow, { leaseMs: LEASE_MS });
    b.register('long', slow, { leaseMs: LEASE_MS });
    await a.enqueue('long', {});
    await a.start();
    await waitFor(() => runs === 1);
    await b.start();
    await waitFor(() => done);
    await sleep(LEASE_MS);
    expect(runs).toBe(1);
  });

  it('a worker dies mid-job: after its lease lapses another worker runs the job (attempt 2)', async () => {
    const a = await queue();
    let started = false;
    a.register(
      'import',
      async () => {
        started = true;
        await hung;
      },
      { leaseMs: LEASE_MS },
    );
    await a.start();
    const job = await a.enqueue('import', { archive: 'x' });
    await waitFor(() => started);
    a.simulateCrash();
    const s = stores[0]!;
    const leaseAtCrash = (await jobById(s, job._id)).leaseUntil!.getTime();

    const b = await queue();
    const seen: Array<{ at: number; attempts: number }> = [];
    b.register(
      'import',
      async (_payload, j) => {
        seen.push({ at: Date.now(), attempts: j.attempts });
      },
      { leaseMs: LEASE_MS },
    );
    await b.start();
    await waitFor(async () => (await jobById(s, job._id)).status === 'done');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.attempts).toBe(2);
    expect(seen[0]!.at).toBeGreaterThanOrEqual(leaseAtCrash);
    expect(await jobById(s, job._id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('a job whose worker died on its last attempt becomes dead without running again', async () => {
    const a = await queue();
    a.register('once', () => hung, { leaseMs: LEASE_MS });
    await a.start();
    const job = await a.enqueue('once', {}, { maxAttempts: 1 });
    const s = stores[0]!;
    await waitFor(async () => (await jobById(s, job._id)).status === 'running');
    a.simulateCrash();
    const b = await queue();
    let ran = false;
    b.register('once', async () => void (ran = true), { leaseMs: LEASE_MS });
    await b.start();
    await waitFor(async () => (await jobById(s, job._id)).status === 'dead');
    expect(ran).toBe(false);
    expect((await jobById(s, job._id)).lastError).toMatch(/worker lost/);
  });

  it('stop() stops claiming and waits for running handlers', async () => {
    const q = await queue();
    const events: string[] = [];
    q.register('task', async (payload) => {
      events.push(`start ${(payload as { n: number }).n}`);
      await sleep(80);
      events.push(`end ${(payload as { n: number }).n}`);
    });
    await q.start();
    await q.enqueue('task', { n: 1 });
    await waitFor(() => events.length === 1);
    await q.stop();
    events.push('stopped');
    const late = await q.enqueue('task', { n: 2 });
    await sleep(100);
    expect(events).toEqual(['start 1', 'end 1', 'stopped']);
    expect(await jobById(stores[0]!, late._id)).toMatchObject({ status: 'queued' });
  });
}
