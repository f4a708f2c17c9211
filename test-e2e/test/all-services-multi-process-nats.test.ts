// One flow across all eight services, each in its own process over a real nats-server (JetStream) on its
// own embedded store, the gateway in front (test-e2e/support/all-services-flow.ts says what the flow does).
// The same flow in the shape docker-compose.yml describes, on a MongoDB-wire store, federation included:
// all-services-deployed-shape-mongodb.test.ts.
import { afterAll, beforeAll, test } from '@jest/globals';
import { describeWithNats } from '@murmur/testing';
import { runAllServicesFlow, startStandIns, type StandIns } from '../support/all-services-flow.js';
import { startCluster, type Cluster } from '../support/cluster.js';

describeWithNats('all eight services, multi-process over NATS: one flow across them', () => {
  let standIns: StandIns;
  let cluster: Cluster;

  beforeAll(async () => {
    standIns = await startStandIns();
    cluster = await startCluster(
      ['identity', 'reader', 'publishing', 'feeds', 'microsub', 'webmention', 'archive', 'push'],
      'http://murmur.test',
      standIns.env,
    );
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await standIns?.close();
  }, 60_000);

  test('sign in → publish → timeline → push → webmention → microsub → reader → archive', async () => {
    await runAllServicesFlow(cluster, standIns);
  }, 240_000);
});
