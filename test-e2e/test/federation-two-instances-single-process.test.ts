// Two Murmur instances, each a single process on its own loopback port, federate over plain http
// (PUBLIC_URL is http): follow, a post, an answer, an unfollow (support/federation-flow.ts). Outbound
// requests may reach 127.0.0.1 only because OUTBOUND_ALLOW_HOSTS says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, test } from '@jest/globals';
import { startSingleProcess, type SingleProcess } from '@murmur/cli';
import { freePort } from '@murmur/testing';
import { runFederationFlow, type FederationSide } from '../support/federation-flow.js';

const instances: { murmur: SingleProcess; dataDir: string; side: FederationSide }[] = [];

async function startOne(name: string) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `murmur-e2e-federation-${name}-`));
  const murmur = await startSingleProcess({
    PATH: process.env.PATH,
    PORT: String(port),
    GATEWAY_INTERNAL_PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BUS_URL: `memory:e2e-federation-${name}-${process.pid}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
  });
  instances.push({
    murmur,
    dataDir,
    side: { gatewayUrl: `http://127.0.0.1:${port}`, adminToken: murmur.adminToken },
  });
}

beforeAll(async () => {
  await startOne('a');
  await startOne('b');
}, 120_000);

afterAll(async () => {
  for (const i of instances) {
    await i.murmur.stop();
    rmSync(i.dataDir, { recursive: true, force: true });
  }
});

test('two instances federate: follow, post, answer, unfollow', async () => {
  await runFederationFlow(instances[0]!.side, instances[1]!.side);
}, 180_000);
