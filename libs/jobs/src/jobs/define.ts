// One shape for every job of every service (docs/service-template.md): a name
// `<service>.<entity>.<verb>`, a zod payload checked on enqueue and again when the job runs (a stored
// payload may predate a schema change), options, and a handler that receives the service's context.
// A job the service's domain queues is declared apart from its handler (declareJob in `domain/jobs.ts`,
// handleJob in `jobs/<job>.ts`), so that `domain/` never imports `jobs/` while `jobs/` imports `domain/`.
import type { z } from 'zod';
import type { JobQueue } from './queue.js';
import type { EnqueueOptions, Job, RegisterOptions } from './types.js';

const JOB_NAME = /^[a-z][a-z0-9]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

/** What enqueueing a job needs: everything of a job but its handler (declareJob). */
export interface JobType<S extends z.ZodType = z.ZodType> {
  /** `<service>.<entity>.<verb>`, e.g. `reader.feed.refresh`. */
  readonly name: string;
  readonly payload: S;
  readonly options?: RegisterOptions;
  /**
   * Names this job had before (jobs queued by an older version under such a name still run after
   * an upgrade). Never reused for another job.
   */
  readonly formerNames?: readonly string[];
}

export type JobHandle<C, S extends z.ZodType> = (
  ctx: C,
  payload: z.output<S>,
  job: Job<z.output<S>>,
) => Promise<void>;

export interface JobDefinition<C, S extends z.ZodType = z.ZodType> extends JobType<S> {
  handle(ctx: C, payload: z.output<S>, job: Job<z.output<S>>): Promise<void>;
}

function checkName(name: string): void {
  if (!JOB_NAME.test(name)) throw new Error(`job name ${name} is not <service>.<entity>.<verb>`);
}

export function defineJob<C, S extends z.ZodType>(def: JobDefinition<C, S>): JobDefinition<C, S> {
  checkName(def.name);
  return def;
}

/**
 * Declares a job without its handler: what the code that queues it needs (enqueueJob takes it). The
 * handler is attached with handleJob where the job's work is, and registerJobs takes the result.
 */
export function declareJob<S extends z.ZodType>(type: JobType<S>): JobType<S> {
  checkName(type.name);
  return type;
}

/** The definition of a declared job: its name, former names, payload and options, with `handle`. */
export function handleJob<C, S extends z.ZodType>(
  type: JobType<S>,
  handle: JobHandle<C, S>,
): JobDefinition<C, S> {
  return { ...type, handle };
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

/** Enqueues a job of `def` (declared or defined), its payload checked against the schema first. */
export async function enqueueJob<S extends z.ZodType>(
  queue: JobQueue,
  def: JobType<S>,
  payload: z.input<S>,
  options?: EnqueueOptions,
): Promise<Job<z.output<S>>> {
  return queue.enqueue(def.name, def.payload.parse(payload) as z.output<S>, options);
}
