// One shape for every job of every service (docs/service-template.md): a name
// `<service>.<entity>.<verb>`, a zod payload checked on enqueue and again when the job runs (a stored
// payload may predate a schema change), options, and a handler that receives the service's context.
import type { z } from 'zod';
import type { JobQueue } from './queue.js';
import type { EnqueueOptions, Job, RegisterOptions } from './types.js';

const JOB_NAME = /^[a-z][a-z0-9]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

export interface JobDefinition<C, S extends z.ZodType = z.ZodType> {
  /** `<service>.<entity>.<verb>`, e.g. `reader.feed.refresh`. */
  readonly name: string;
  readonly payload: S;
  readonly options?: RegisterOptions;
  /**
   * Names this job had before (jobs queued by an older version under such a name still run after
   * an upgrade). Never reused for another job.
   */
  readonly formerNames?: readonly string[];
  handle(ctx: C, payload: z.output<S>, job: Job<z.output<S>>): Promise<void>;
}

export function defineJob<C, S extends z.ZodType>(def: JobDefinition<C, S>): JobDefinition<C, S> {
  if (!JOB_NAME.test(def.name)) throw new Error(`job name ${def.name} is not <service>.<entity>.<verb>`);
  return def;
}

/** Registers every definition (and its former names) on `queue`, each handler bound to `ctx`. */
export function registerJobs<C>(
  queue: JobQueue,
  ctx: C,
  // The payload schema differs per job; each handler is checked against its own schema at definition.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  definitions: ReadonlyArray<JobDefinition<C, any>>,
): void {
  for (const def of definitions) {
    const handler = async (payload: unknown, job: Job<unknown>) => {
      const parsed = def.payload.safeParse(payload);
      if (!parsed.success) {
        // A payload that does not parse never will: retrying only delays the dead letter.
        throw new Error(`${def.name}: stored payload does not match its schema: ${parsed.error.message}`);
      }
      await def.handle(ctx, parsed.data, job as Job<never>);
    };
    for (const name of [def.name, ...(def.formerNames ?? [])]) queue.register(name, handler, def.options);
  }
}

/** Enqueues a job of `def`, its payload checked against the schema first. */
export async function enqueueJob<C, S extends z.ZodType>(
  queue: JobQueue,
  def: JobDefinition<C, S>,
  payload: z.input<S>,
  options?: EnqueueOptions,
): Promise<Job<z.output<S>>> {
  return queue.enqueue(def.name, def.payload.parse(payload) as z.output<S>, options);
}
