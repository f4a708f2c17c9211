// The IndieAuth code flow in the distributed mode: identity and the gateway as separate processes,
// talking over a real nats-server (token verification and revocation events travel over NATS).
import { afterAll, beforeAll, test } from '@jest/globals';
import { describeWithNats, freePort, startNatsServer, startSmtpCapture } from '@murmur/platform/testing';
import type { NatsServerHandle, SmtpCapture } from '@murmur/platform/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIndieAuthFlow } from '../support/indieauth-flow.js';
import { startChild, waitReady, type ChildHandle } from '../support/processes.js';

const PUBLIC_URL = 'http://murmur.test';

describeWithNats('IndieAuth, multi-process over NATS', () => {
  let nats: NatsServerHandle;
  let smtp: SmtpCapture;
  const children: ChildHandle[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-indieauth-'));
  const adminToken = randomBytes(32).toString('base64url');
  let gatewayUrl = '';

  beforeAll(async () => {
    nats = await startNatsServer();
    smtp = await startSmtpCapture();
    const [identityPort, gatewayPort] = [await freePort(), await freePort()];
    const common = {
      BUS_URL: nats.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      PUBLIC_URL,
      HOST: '127.0.0.1',
    };
    const identity = startChild('identity', 'services/identity/dist/main.js', {
      ...common,
      IDENTITY_PORT: String(identityPort),
      STORE_URL: `file:${join(dataDir, 'identity-store')}`,
      DATA_DIR: join(dataDir, 'identity-data'),
      MAIL_URL: smtp.url,
      MURMUR_ADMIN_TOKEN: adminToken,
    });
    children.push(identity);
    const gateway = startChild('gateway', 'gateway/dist/main.js', {
      ...common,
      PORT: String(gatewayPort),
      IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
    });
    children.push(gateway);
    await waitReady(identity, `http://127.0.0.1:${identityPort}/readyz`);
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await waitReady(gateway, `${gatewayUrl}/readyz`);
  }, 60_000);

  afterAll(async () => {
    for (const c of children.reverse()) await c.stop();
    await smtp?.stop();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('302-indieauth-code-flow: screen, emailed sign-in, approve, PKCE redemption, verify, revoke → 401', async () => {
    await runIndieAuthFlow({ gatewayUrl, adminToken, smtp, publicUrl: PUBLIC_URL });
  }, 60_000);
});
