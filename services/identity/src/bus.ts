// Every place identity meets the bus: the requests it answers (token and credential checks for every
// service's auth hook, user look-ups, mail other services hand over) and the events it follows
// (publishing's sites, for the account object's `default_site` and IndieAuth's `me`). Handlers are
// one-line calls into domain/; subjects and payloads come from libs/contracts.
import { identity, mail, publishing } from '@murmur/contracts';
import type { Subscription } from '@murmur/bus';
import type { IdentityContext } from './domain/context.js';
import { lookUpUser, verifyBearerToken, verifyCredentials } from './domain/lookups.js';
import { relayMail } from './domain/relayed-mail.js';
import { rememberDefaultSite } from './domain/sites.js';

/**
 * Durable consumer groups. A group's name never changes once deployed: a renamed durable consumer
 * starts over from the newest event, and what was queued under the old name is lost. Both site
 * events share one group (it was deployed that way), each subject its own consumer of it.
 */
export const GROUPS = { defaultSites: 'identity-default-sites' } as const;

export async function wireBus(ctx: IdentityContext): Promise<Subscription[]> {
  return Promise.all([
    ctx.bus.handle(identity.tokenVerify, ({ token }) => verifyBearerToken(ctx, token)),
    ctx.bus.handle(identity.credentialsVerify, ({ login, token }) => verifyCredentials(ctx, login, token)),
    ctx.bus.handle(identity.usersGet, (query) => lookUpUser(ctx, query)),
    ctx.bus.handle(mail.mailSend, (message) => relayMail(ctx, message)),
    ctx.bus.subscribe(publishing.siteCreated, { durable: GROUPS.defaultSites }, ({ data }) =>
      rememberDefaultSite(ctx, data.site),
    ),
    ctx.bus.subscribe(publishing.siteUpdated, { durable: GROUPS.defaultSites }, ({ data }) =>
      rememberDefaultSite(ctx, data.site),
    ),
  ]);
}
