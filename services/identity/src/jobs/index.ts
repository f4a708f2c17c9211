// Every job of identity, registered on its queue with the context the handlers run in.
import { registerJobs, type JobQueue } from '@murmur/platform';
import type { IdentityContext } from '../domain/context.js';
import { relayedMailSendJob } from './relayed-mail-send.js';
import { signinEmailSendJob } from './signin-email-send.js';

export const IDENTITY_JOBS = [signinEmailSendJob, relayedMailSendJob] as const;

export function registerIdentityJobs(queue: JobQueue, ctx: IdentityContext): void {
  registerJobs(queue, ctx, IDENTITY_JOBS);
}
