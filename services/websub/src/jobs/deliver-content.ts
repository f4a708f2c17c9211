import { handleJob } from '@murmur/jobs';
import type { WebsubContext } from '../domain/context.js';
import { deliverContent } from '../domain/deliver.js';
import { deliverContentJob } from '../domain/jobs.js';

// A failure means some subscribers on one callback host do not have the content yet (5xx, 429, 408,
// timeouts, unreachable): retried with backoff (WEBSUB_RETRY_BASE_MS, WEBSUB_DELIVERY_ATTEMPTS) for
// those alone; after the last attempt they miss this content and get the next one. Other hosts are
// other jobs and never wait.
export const deliverContentJobDefinition = handleJob(deliverContentJob, (ctx: WebsubContext, payload, job) =>
  deliverContent(ctx, payload, job),
);
