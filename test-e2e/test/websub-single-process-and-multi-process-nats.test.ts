// The WebSub hub in both run modes: a subscriber on 127.0.0.1 discovers the hub from ada's feed.xml,
// subscribes with a secret and receives her new post signed (support/websub-flow.ts) — from the single
// process (the hub reads the feeds from its own gateway, WEBSUB_FEEDS_ORIGIN's default), and from
// identity, publishing, feeds, websub and the gateway as processes over NATS (WEBSUB_FEEDS_ORIGIN the
// gateway's address).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { startSingleProcess, type SingleProcess } from '@murmur/cli';
import { describeWithNats, freePort } from '@murmur/testing';
import { startCluster, type Cluster } from '../support/cluster.js';
import { runWebsubFlow } from '../support/websub-flow.js';

describe('the hub in the single process', () => {
  let murmur: SingleProcess;
  let dataDir: string;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-websub-'));
    murmur = await startSingleProcess({
      PATH: process.env.PATH,
      PORT: String(port),
      GATEWAY_INTERNAL_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUS_URL: `memory:e2e-websub-${process.pid}`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    });
  }, 120_000);
  afterAll(async () => {
    await murmur?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a subscriber gets ada’s new post signed', async () => {
    await runWebsubFlow({ gatewayUrl: `http://127.0.0.1:${port}`, adminToken: murmur.adminToken });
  }, 180_000);
});

describeWithNats('the hub as processes over NATS', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    const port = await freePort();
    cluster = await startCluster(
      ['identity', 'publishing', 'feeds', 'websub'],
      `http://127.0.0.1:${port}`,
      {
        websub: { OUTBOUND_ALLOW_HOSTS: '127.0.0.1', WEBSUB_FEEDS_ORIGIN: `http://127.0.0.1:${port}` },
        publishing: { PUBLIC_GETS_PER_MINUTE: '100000' },
      },
      port,
    );
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test('a subscriber gets ada’s new post signed', async () => {
    await runWebsubFlow({ gatewayUrl: cluster.gatewayUrl, adminToken: cluster.adminToken });
  }, 180_000);
});
