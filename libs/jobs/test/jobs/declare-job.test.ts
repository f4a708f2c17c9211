// declareJob / handleJob: a job declared apart from its handler (the declaration where the code that
// queues it can import it, the handler beside the work). What a service sees: a declared job is
// enqueued and runs its attached handler, under its former name too; a bad name and a payload that
// does not match the schema are refused.
import { afterEach, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { z } from 'zod';
import { declareJob, enqueueJob, handleJob, JobQueue, registerJobs } from '../../src/jobs/index.js';
import { openStore } from '@murmur/runtime';
import { type Store } from '@murmur/store';
import { waitFor } from './job-queue-contract.js';

let store: Store;
let queue: JobQueue;

afterEach(async () => {
  await queue?.stop(1000);
  await store?.close();
});

const greetingJob = declareJob({
  name: 'test.greeting.send',
  formerNames: ['greet'],
  payload: z.object({ to: z.string().min(1) }),
  options: { concurrency: 1 },
});

async function start(ran: string[]) {
  store = await openStore('memory:', { service: 'test' });
  queue = new JobQueue(store, { service: 'test', logger: pino({ level: 'silent' }), pollIntervalMs: 20 });
  const definition = handleJob(greetingJob, async (ctx: { prefix: string }, payload, job) => {
    ran.push(`${ctx.prefix} ${payload.to} (${job.type})`);
  });
  registerJobs(queue, { prefix: 'hello' }, [definition]);
  await queue.start();
  return definition;
}

it('runs a declared job with its attached handler, the service context and the parsed payload', async () => {
  const ran: string[] = [];
  const definition = await start(ran);
  expect(definition).toMatchObject({
    name: 'test.greeting.send',
    formerNames: ['greet'],
    options: { concurrency: 1 },
  });
  await enqueueJob(queue, greetingJob, { to: 'ada' });
  await waitFor(() => ran.length === 1);
  expect(ran).toEqual(['hello ada (test.greeting.send)']);
});

it('still runs a declared job queued under its former name', async () => {
  const ran: string[] = [];
  await start(ran);
  await queue.enqueue('greet', { to: 'grace' });
  await waitFor(() => ran.length === 1);
  expect(ran).toEqual(['hello grace (greet)']);
});

it('refuses a payload that does not match the declared schema when it is enqueued', async () => {
  await start([]);
  await expect(enqueueJob(queue, greetingJob, { to: '' })).rejects.toThrow();
  const jobs = store.collection<{ _id: string }>('jobs');
  expect(await jobs.countDocuments({})).toBe(0);
});

it('refuses to declare a job name that is not <service>.<entity>.<verb>', () => {
  expect(() => declareJob({ name: 'publish-scheduled-post', payload: z.object({}) })).toThrow(
    /<service>.<entity>.<verb>/,
  );
});
