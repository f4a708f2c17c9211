// The distributed mode for end-to-end tests: a nats-server of the test's own, identity as its own
// process with an embedded store in a temp dir, and the gateway as another process in front.
import { freePort, startNatsServer, startSmtpCapture } from '@murmur/testing';
import type { NatsServerHandle, SmtpCapture } from '@murmur/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, waitReady, type ChildHandle } from './processes.js';

export interface MultiProcess {
  gatewayUrl: string;
  adminToken: string;
  publicUrl: string;
  smtp: SmtpCapture;
  stop(): Promise<void>;
}

export interface MultiProcessOptions {
  /** Also start publishing and feeds, each in its own process (the feeds flow needs both). */
  withFeeds?: boolean;
}

export async function startMultiProcess(
  publicUrl = 'http://murmur.test',
  options: MultiProcessOptions = {},
): Promise<MultiProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-multi-'));
  const adminToken = randomBytes(32).toString('base64url');
  const children: ChildHandle[] = [];
  let nats: NatsServerHandle | undefined;
  let smtp: SmtpCapture | undefined;
  const stop = async () => {
    for (const c of children.reverse()) await c.stop();
    await smtp?.stop();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    nats = await startNatsServer();
    smtp = await startSmtpCapture();
    const [identityPort, gatewayPort, internalPort] = [await freePort(), await freePort(), await freePort()];
    const common = {
      BUS_URL: nats.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      PUBLIC_URL: publicUrl,
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
    const extra: Record<string, string> = {};
    const ready: Array<[ChildHandle, string]> = [];
    if (options.withFeeds) {
      for (const name of ['publishing', 'feeds'] as const) {
        const port = await freePort();
        const child = startChild(name, `services/${name}/dist/main.js`, {
          ...common,
          [`${name.toUpperCase()}_PORT`]: String(port),
          STORE_URL: `file:${join(dataDir, `${name}-store`)}`,
          DATA_DIR: join(dataDir, `${name}-data`),
          MURMUR_ADMIN_TOKEN: adminToken,
        });
        children.push(child);
        extra[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
        ready.push([child, `http://127.0.0.1:${port}/readyz`]);
      }
    }
    const gateway = startChild('gateway', 'gateway/dist/main.js', {
      ...common,
      PORT: String(gatewayPort),
      // The aggregate /readyz is on the gateway's internal port only.
      GATEWAY_INTERNAL_PORT: String(internalPort),
      IDENTITY_URL: `http://127.0.0.1:${identityPort}`,
      ...extra,
    });
    children.push(gateway);
    await waitReady(identity, `http://127.0.0.1:${identityPort}/readyz`);
    for (const [child, url] of ready) await waitReady(child, url);
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await waitReady(gateway, `http://127.0.0.1:${internalPort}/readyz`);
    return { gatewayUrl, adminToken, publicUrl, smtp, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
