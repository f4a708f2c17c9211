// Two distributed Murmurs federate: in each, identity, publishing, feeds, federation and the gateway
// run as processes of their own over a nats-server of its own (JetStream), PUBLIC_URL the gateway's
// loopback address — the same flow as two single processes (support/federation-flow.ts).
import { afterAll, beforeAll, test } from '@jest/globals';
import { describeWithNats, freePort } from '@murmur/testing';
import { startCluster, type Cluster } from '../support/cluster.js';
import { runFederationFlow } from '../support/federation-flow.js';

describeWithNats('federation, two clusters over NATS', () => {
  const clusters: Cluster[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const allow = { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', FEDERATION_RETRY_BASE_MS: '500' };
      clusters.push(
        await startCluster(
          ['identity', 'publishing', 'feeds', 'federation'],
          `http://127.0.0.1:${port}`,
          { federation: allow, feeds: allow },
          port,
        ),
      );
    }
  }, 180_000);

  afterAll(async () => {
    for (const c of clusters) await c.stop();
  });

  test('follow, post, answer, unfollow between the two', async () => {
    await runFederationFlow(
      { gatewayUrl: clusters[0]!.gatewayUrl, adminToken: clusters[0]!.adminToken },
      { gatewayUrl: clusters[1]!.gatewayUrl, adminToken: clusters[1]!.adminToken },
    );
  }, 240_000);
});
