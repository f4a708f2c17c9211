// The feeds flow with identity, publishing, feeds and the gateway each in its own process, events
// and requests over a real nats-server (JetStream): publish → follower's timeline, edit, mention, delete.
import { afterAll, beforeAll, test } from '@jest/globals';
import { describeWithNats } from '@murmur/testing';
import { runFeedsFlow } from '../support/feeds-flow.js';
import { startMultiProcess, type MultiProcess } from '../support/multi-process.js';

describeWithNats('feeds, multi-process over NATS', () => {
  let murmur: MultiProcess;
  beforeAll(async () => {
    murmur = await startMultiProcess('http://murmur.test', { withFeeds: true });
  }, 60_000);
  afterAll(() => murmur?.stop());

  test('200-feeds-flow: follow, publish → timeline, edit, mention, delete', async () => {
    await runFeedsFlow(murmur);
  }, 60_000);
});
