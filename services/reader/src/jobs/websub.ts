// The reader's WebSub requests to hubs (domain/websub.ts). A hub that refuses or cannot be reached is
// recorded on the subscription and asked again later by the scheduler; the feed is polled meanwhile,
// so a failure here costs a user only the push, never an entry. A thrown failure is a store outage.
import { handleJob } from '@murmur/jobs';
import type { ReaderContext } from '../domain/context.js';
import { webSubSubscribeJob, webSubUnsubscribeJob } from '../domain/jobs.js';
import { subscribeAtHub, unsubscribeAtHub } from '../domain/websub.js';

export const webSubSubscribeJobDefinition = handleJob(
  webSubSubscribeJob,
  async (ctx: ReaderContext, payload) =>
    void (await subscribeAtHub(ctx, payload.feedId, { hub: payload.hub, topic: payload.topic })),
);

export const webSubUnsubscribeJobDefinition = handleJob(webSubUnsubscribeJob, (ctx: ReaderContext, payload) =>
  unsubscribeAtHub(ctx, payload.token),
);
