// defineJob / registerJobs / enqueueJob: the one shape of a service's jobs. What a service sees: a job
// runs with its context and a parsed payload, a bad payload is refused at enqueue, and a job queued
// under a former name still runs after the rename.
import { afterEach, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { z } from 'zod';
import { defineJob, enqueueJob, JobQueue, registerJobs } from '../../src/jobs/index.js';
import { openStore } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import { waitFor } from './job-queue-contract.js';

let store: Store;
let queue: JobQueue;

afterEach(async () => {
  await queue?.stop(1000);
  await store?.close();
});

async function start(ran: string[]) {
  store = await openStore('memory:', { service: 'test' });
  queue = new JobQueue(store, { service: 'test', logger: pino({ level: 'silent' }), pollIntervalMs: 20 });
  const greet = defineJob({
    name: 'test.greeting.send',
    payload: z.object({ to: z.string().min(1) }),
    formerNames: ['greet'],
    handle: async (ctx: { prefix: string }, payload) => void ran.push(`${ctx.prefix} ${payload.to}`),
  });
  registerJobs(queue, { prefix: 'hello' }, [greet]);
  await queue.start();
  return greet;
}

it('runs a job with the service context and its parsed payload', async () => {
  const ran: string[] = [];
  const greet = await start(ran);
  await enqueueJob(queue, greet, { to: 'ada' });
  await waitFor(() => ran.length === 1);
  expect(ran).toEqual(['hello ada']);
});

it('refuses a payload that does not match the schema when it is enqueued', async () => {
  const greet = await start([]);
  await expect(enqueueJob(queue, greet, { to: '' })).rejects.toThrow();
});

it('still runs a job queued under its former name', async () => {
  const ran: string[] = [];
  await start(ran);
  await queue.enqueue('greet', { to: 'grace' });
  await waitFor(() => ran.length === 1);
  expect(ran).toEqual(['hello grace']);
});

it('marks a stored payload that no longer parses as failed instead of running it', async () => {
  const ran: string[] = [];
  await start(ran);
  const job = await queue.enqueue('test.greeting.send', { to: 42 }, { maxAttempts: 1 });
  const jobs = store.collection<{ _id: string; status: string; lastError: string | null }>('jobs');
  await waitFor(async () => (await jobs.findOne({ _id: job._id }))?.status === 'dead');
  expect((await jobs.findOne({ _id: job._id }))?.lastError).toMatch(/does not match its schema/);
  expect(ran).toEqual([]);
});

it('refuses a job name that is not <service>.<entity>.<verb>', () => {
  expect(() =>
    defineJob({ name: 'publish-scheduled-post', payload: z.object({}), handle: async () => undefined }),
  ).toThrow(/<service>.<entity>.<verb>/);
});
