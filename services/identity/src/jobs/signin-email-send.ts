// Sends one sign-in email. A failure means the person's link does not arrive: the job is retried with
// backoff, and after the last attempt they have to ask again (the sign-in request itself was already
// answered 200, so nothing tells them). The token is made inside the job, so the raw token never
// sits in the queue; a run after an expired lease mails a second, equally valid link.
import { handleJob } from '@murmur/jobs';
import type { IdentityContext } from '../domain/context.js';
import { signinEmailSendJob } from '../domain/jobs.js';
import { sendSigninEmail } from '../domain/signin.js';

export const signinEmailSendJobDefinition = handleJob(
  signinEmailSendJob,
  (ctx: IdentityContext, job): Promise<void> => sendSigninEmail(ctx, job),
);
