// Every job of the archive service, registered on its queue with the service's context.
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { ArchiveContext } from '../domain/context.js';
import { importRunJobDefinition } from './import-run.js';

export function registerArchiveJobs(queue: JobQueue, ctx: ArchiveContext): void {
  registerJobs(queue, ctx, [importRunJobDefinition]);
}
