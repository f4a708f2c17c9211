// A whole single-process Murmur (gateway and every service, one event loop) for suites that attack it
// from outside, with an SMTP capture, a temporary data directory and helpers to make users.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSingleProcess, type SingleProcess } from '@murmur/cli';
import { freePort, startSmtpCapture, type SmtpCapture } from '@murmur/testing';
import type { RouteCase } from './routes.js';

export interface Instance {
  url: string;
  adminToken: string;
  dataDir: string;
  smtp: SmtpCapture;
  murmur: SingleProcess;
  /** Creates a user through the admin API; resolves once publishing has made the user's site. */
  createUser(username: string): Promise<{ username: string; token: string }>;
  stop(): Promise<void>;
}

export async function startInstance(env: Record<string, string> = {}): Promise<Instance> {
  const smtp = await startSmtpCapture();
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-security-'));
  let murmur: SingleProcess;
  try {
    murmur = await startSingleProcess({
      PATH: process.env.PATH,
      PORT: String(await freePort()),
      // Its own internal port too: two suites on the default 9090 at once failed with EADDRINUSE.
      GATEWAY_INTERNAL_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUS_URL: `memory:e2e-security-${process.pid}-${Math.random().toString(36).slice(2)}`,
      MAIL_URL: smtp.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PUBLIC_URL: 'http://murmur.test',
      ...env,
    });
  } catch (err) {
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const url = `http://127.0.0.1:${murmur.port}`;
  return {
    url,
    adminToken: murmur.adminToken,
    dataDir,
    smtp,
    murmur,
    async createUser(username) {
      const res = await fetch(`${url}/admin/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${murmur.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.test` }),
      });
      if (res.status !== 201) throw new Error(`creating ${username}: ${res.status} ${await res.text()}`);
      const { token } = (await res.json()) as { token: string };
      for (let i = 0; i < 100; i++) {
        const me = await fetch(`${url}/account/me`, { headers: { authorization: `Bearer ${token}` } });
        if (((await me.json()) as { has_site?: boolean }).has_site) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      return { username, token };
    },
    async stop() {
      await murmur.stop();
      await smtp.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The route with every outside URL in its path and body pointed at 127.0.0.2, which the safe fetcher
 * refuses before connecting: attacking every endpoint must not make the services fetch the internet.
 */
export function withLocalUrls(route: RouteCase): RouteCase {
  const local = (s: string) =>
    s
      .replace(/https?%3A%2F%2F[^%&"]+/gi, 'http%3A%2F%2F127.0.0.2')
      .replace(/https?:\/\/[^/"&\s]+/gi, 'http://127.0.0.2');
  return {
    ...route,
    path: local(route.path),
    body: route.body === undefined ? undefined : local(route.body),
  };
}
