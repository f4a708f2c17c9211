// Mode 1: everything in one process on the embedded default (file store in a temp dir, memory bus).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startSingleProcess, type SingleProcess } from '@murmur/cli';
import { freePort, startSmtpCapture, type SmtpCapture } from '@murmur/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFeedsFlow } from '../support/feeds-flow.js';
import { runAccountFlow } from '../support/flow.js';

describe('single process (embedded store, in-process bus)', () => {
  let smtp: SmtpCapture;
  let murmur: SingleProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-single-'));

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    murmur = await startSingleProcess({
      PATH: process.env.PATH,
      PORT: String(await freePort()),
      GATEWAY_INTERNAL_PORT: '0', // any free port: tests run side by side
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUS_URL: `memory:e2e-single-${process.pid}`,
      MAIL_URL: smtp.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PUBLIC_URL: 'http://murmur.test',
    });
  });

  afterAll(async () => {
    await murmur?.stop();
    await smtp?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('200-account-flow: create, sign in by email, verify, call, revoke → 401', async () => {
    await runAccountFlow({
      gatewayUrl: `http://127.0.0.1:${murmur.port}`,
      adminToken: murmur.adminToken,
      smtp,
    });
  });

  test('200-feeds-flow: follow, publish → timeline, edit, mention, delete', async () => {
    await runFeedsFlow({ gatewayUrl: `http://127.0.0.1:${murmur.port}`, adminToken: murmur.adminToken });
  });

  test('200-default-site: a new user gets a site from publishing, identity learns it, the site declares IndieAuth', async () => {
    const base = `http://127.0.0.1:${murmur.port}`;
    const created = await fetch(`${base}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${murmur.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'grace', email: 'grace@example.test' }),
    });
    const { token } = (await created.json()) as { token: string };
    let account: { has_site?: boolean; default_site?: string } = {};
    for (let i = 0; i < 50 && !account.has_site; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`${base}/account/me`, { headers: { authorization: `Bearer ${token}` } });
      account = (await res.json()) as typeof account;
    }
    expect(account).toMatchObject({ has_site: true, default_site: 'murmur.test' });
    const home = await fetch(`${base}/sites/grace/`);
    expect(home.status).toBe(200);
    const page = await home.text();
    expect(page).toContain('rel="authorization_endpoint" href="http://murmur.test/indieauth/auth"');
    expect(page).toContain('class="h-feed');
  });

  test('200-readyz-internal-only: the internal port answers /readyz and /metrics, the public port 404', async () => {
    const ready = await fetch(`${murmur.internalUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      services: { identity: 'ready', reader: 'ready', publishing: 'ready' },
    });
    const metrics = await fetch(`${murmur.internalUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('gateway_requests_total');
    for (const path of ['/readyz', '/metrics']) {
      const res = await fetch(`http://127.0.0.1:${murmur.port}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await fetch(`http://127.0.0.1:${murmur.port}/healthz`)).status).toBe(200);
  });
});
