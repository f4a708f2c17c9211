// Every job of identity, registered on its queue with the context the handlers run in.
import { registerJobs, type JobQueue } from '@murmur/jobs';
import type { IdentityContext } from '../domain/context.js';
import { relayedMailSendJobDefinition } from './relayed-mail-send.js';
import { signinEmailSendJobDefinition } from './signin-email-send.js';

export const IDENTITY_JOBS = [signinEmailSendJobDefinition, relayedMailSendJobDefinition] as const;

export function registerIdentityJobs(queue: JobQueue, ctx: IdentityContext): void {
  registerJobs(queue, ctx, IDENTITY_JOBS);
}
