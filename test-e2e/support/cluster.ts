// A distributed Murmur whose parts can be hurt: every service and the gateway as its own process on a
// fixed port with its own embedded store, and a nats-server (JetStream) of its own on a fixed port, so
// that any of them can be killed with SIGKILL and started again, paused with SIGSTOP and resumed, and
// NATS restarted with an empty store — what the chaos suite (test-e2e/chaos) does under load.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, natsServerBinary } from '@murmur/testing';
import { startChild, waitReady, type ChildHandle } from './processes.js';

export type PartName =
  | 'identity'
  | 'reader'
  | 'publishing'
  | 'feeds'
  | 'microsub'
  | 'webmention'
  | 'archive'
  | 'push'
  | 'federation'
  | 'websub'
  | 'gateway';

interface Part {
  name: PartName;
  entry: string;
  env: Record<string, string>;
  readyUrl: string;
  handle: ChildHandle;
}

export interface Cluster {
  gatewayUrl: string;
  adminToken: string;
  /** `nats://127.0.0.1:<port>` — the same port across restarts. */
  natsUrl: string;
  services: readonly PartName[];
  /** The directory of a service's embedded store (its `STORE_URL` without `file:`), for read-only diagnostics. */
  storeDir(name: Exclude<PartName, 'gateway'>): string;
  /** SIGKILL, then start the same process again (same port, same data) and wait until it is ready. */
  killAndRestart(name: PartName): Promise<void>;
  pause(name: PartName): void;
  resume(name: PartName): void;
  /** Stop nats-server, delete its store (streams and consumers gone), start it again on the same port. */
  restartNatsEmpty(): Promise<void>;
  /** Waits until every part's /readyz answers 200; returns how long that took. */
  allReady(timeoutMs: number): Promise<number>;
  output(name: PartName): string;
  stop(): Promise<void>;
}

async function startNats(port: number, dir: string): Promise<ChildProcess> {
  const bin = natsServerBinary();
  if (!bin) throw new Error('nats-server not found: set NATS_SERVER_BIN or put nats-server on PATH');
  mkdirSync(dir, { recursive: true });
  const child = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nats-server did not start: ${output}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}: ${output}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  });
}

export async function startCluster(
  services: readonly Exclude<PartName, 'gateway'>[],
  publicUrl = 'http://murmur.test',
  /** Variables of one part beyond the common ones (a mail server, an APNs stand-in, allowed hosts). */
  extraEnv: Partial<Record<PartName, Record<string, string>>> = {},
  /** The gateway's port, when PUBLIC_URL must be the gateway's own address (federation between two clusters). */
  gatewayPortGiven?: number,
): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-chaos-'));
  const adminToken = randomBytes(32).toString('base64url');
  const natsPort = await freePort();
  const natsDir = join(dataDir, 'nats');
  let nats = await startNats(natsPort, natsDir);
  const parts = new Map<PartName, Part>();
  const common = {
    BUS_URL: `nats://127.0.0.1:${natsPort}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
    MURMUR_ADMIN_TOKEN: adminToken,
  };
  const launch = (part: Omit<Part, 'handle'>): Part => ({
    ...part,
    handle: startChild(part.name, part.entry, part.env),
  });
  const stop = async () => {
    for (const part of [...parts.values()].reverse()) await part.handle.stop();
    await stopProcess(nats);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const gatewayTargets: Record<string, string> = {};
    for (const name of services) {
      const port = await freePort();
      parts.set(
        name,
        launch({
          name,
          entry: `services/${name}/dist/main.js`,
          env: {
            ...common,
            [`${name.toUpperCase()}_PORT`]: String(port),
            STORE_URL: `file:${join(dataDir, `${name}-store`)}`,
            DATA_DIR: join(dataDir, `${name}-data`),
            ...extraEnv[name],
          },
          readyUrl: `http://127.0.0.1:${port}/readyz`,
        }),
      );
      gatewayTargets[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
    }
    const [gatewayPort, internalPort] = [gatewayPortGiven ?? (await freePort()), await freePort()];
    parts.set(
      'gateway',
      launch({
        name: 'gateway',
        entry: 'gateway/dist/main.js',
        env: {
          ...common,
          PORT: String(gatewayPort),
          GATEWAY_INTERNAL_PORT: String(internalPort),
          GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
          ...gatewayTargets,
          ...extraEnv.gateway,
        },
        readyUrl: `http://127.0.0.1:${internalPort}/readyz`,
      }),
    );
    for (const part of parts.values()) await waitReady(part.handle, part.readyUrl, 30_000);
    const partOf = (name: PartName) => {
      const part = parts.get(name);
      if (!part) throw new Error(`${name} is not part of this cluster`);
      return part;
    };
    return {
      gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
      adminToken,
      natsUrl: `nats://127.0.0.1:${natsPort}`,
      services: [...parts.keys()],
      storeDir: (name) => join(dataDir, `${name}-store`),
      async killAndRestart(name) {
        const part = partOf(name);
        const old = part.handle.child;
        await new Promise<void>((resolve) => {
          if (old.exitCode !== null || old.signalCode !== null) return resolve();
          old.once('exit', () => resolve());
          old.kill('SIGKILL');
        });
        const again = launch(part);
        parts.set(name, again);
        await waitReady(again.handle, again.readyUrl, 30_000);
      },
      pause: (name) => void partOf(name).handle.child.kill('SIGSTOP'),
      resume: (name) => void partOf(name).handle.child.kill('SIGCONT'),
      async restartNatsEmpty() {
        await stopProcess(nats);
        rmSync(natsDir, { recursive: true, force: true });
        nats = await startNats(natsPort, natsDir);
      },
      async allReady(timeoutMs) {
        const started = Date.now();
        for (const part of parts.values()) {
          await waitReady(part.handle, part.readyUrl, Math.max(1, timeoutMs - (Date.now() - started)));
        }
        return Date.now() - started;
      },
      output: (name) => partOf(name).handle.output(),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
