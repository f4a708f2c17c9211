// A distributed Murmur whose parts can be hurt: every service and the gateway as its own process on a
// fixed port with its own embedded store, and a nats-server (JetStream) of its own on a fixed port, so
// that any of them can be killed with SIGKILL and started again, paused with SIGSTOP and resumed, and
// NATS restarted with an empty store — what the chaos suite (test-e2e/chaos) does under load.
//
// With `{ mongoUrl }` the cluster is the shape docker-compose.yml describes (test-e2e/support/deployed.ts):
// each process's variables and command read from compose, each service with its own database on the
// MongoDB-wire server at mongoUrl (media in GridFS), NATS with deploy/compose/nats.conf (a user per service).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, natsServerBinary } from '@murmur/testing';
import { MongoClient } from 'mongodb';
import {
  deployedCommand,
  deployedEnv,
  natsPasswordEnv,
  natsPasswords,
  writeComposeNatsConf,
  type DeployedPart,
  type DeployedSite,
} from './deployed.js';
import { startChild, waitReady, type ChildHandle } from './processes.js';

export type PartName = DeployedPart;

interface Part {
  name: PartName;
  entry: string;
  nodeArgs?: string[];
  env: Record<string, string>;
  readyUrl: string;
  handle: ChildHandle;
}

export interface Cluster {
  gatewayUrl: string;
  adminToken: string;
  /** `nats://127.0.0.1:<port>` — the same port across restarts (in the deployed shape, as identity's user). */
  natsUrl: string;
  services: readonly PartName[];
  /** The directory of a service's embedded store (its `STORE_URL` without `file:`), for read-only diagnostics. */
  storeDir(name: Exclude<PartName, 'gateway'>): string;
  /** Each part's environment as started (the deployed shape's test reads it). */
  env(name: PartName): Record<string, string>;
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

/** A nats-server with JetStream; with `conf`, that configuration file and its environment instead of flags. */
async function startNats(
  port: number,
  dir: string,
  conf?: { file: string; env: Record<string, string> },
): Promise<ChildProcess> {
  const bin = natsServerBinary();
  if (!bin) throw new Error('nats-server not found: set NATS_SERVER_BIN or put nats-server on PATH');
  mkdirSync(dir, { recursive: true });
  const args = conf ? ['-c', conf.file] : ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir];
  const child = spawn(bin, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(conf ? { env: { PATH: process.env.PATH ?? '', ...conf.env } } : {}),
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
  /** The shape docker-compose.yml describes, on the MongoDB-wire server at `mongoUrl` (test-e2e/support/deployed.ts). */
  deployed?: { mongoUrl: string },
): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-chaos-'));
  const adminToken = randomBytes(32).toString('base64url');
  const natsPort = await freePort();
  const natsDir = join(dataDir, 'nats');
  let site: DeployedSite | undefined;
  let natsConf: { file: string; env: Record<string, string> } | undefined;
  if (deployed) {
    site = {
      publicUrl,
      adminToken,
      mongoUrl: deployed.mongoUrl,
      natsPort,
      natsPasswords: natsPasswords(),
      ports: {},
      gatewayInternalPort: 0,
      dataDir,
      databaseSuffix: `_${randomBytes(3).toString('hex')}`,
    };
    natsConf = {
      file: writeComposeNatsConf(join(dataDir, 'nats-conf'), natsPort, await freePort()),
      env: natsPasswordEnv(site.natsPasswords),
    };
  }
  let nats = await startNats(natsPort, natsDir, natsConf);
  const parts = new Map<PartName, Part>();
  /** The databases of a deployed run: dropped when it stops, as a fresh compose volume starts empty. */
  const dropDatabases = async () => {
    if (!site) return;
    const client = new MongoClient(site.mongoUrl, { serverSelectionTimeoutMS: 10_000 });
    try {
      for (const part of parts.values()) {
        const url = part.env.STORE_URL;
        if (url) await client.db(new URL(url).pathname.slice(1)).dropDatabase();
      }
    } finally {
      await client.close();
    }
  };
  const common = {
    BUS_URL: `nats://127.0.0.1:${natsPort}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
    MURMUR_ADMIN_TOKEN: adminToken,
  };
  const launch = (part: Omit<Part, 'handle'>): Part => ({
    ...part,
    handle: startChild(part.name, part.entry, part.env, part.nodeArgs),
  });
  const stop = async () => {
    for (const part of [...parts.values()].reverse()) await part.handle.stop();
    await dropDatabases().catch((err: Error) =>
      process.stderr.write(`dropping the run's databases: ${err.message}\n`),
    );
    await stopProcess(nats);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const gatewayTargets: Record<string, string> = {};
    if (site) {
      for (const name of services) site.ports[name] = await freePort();
      site.ports.gateway = gatewayPortGiven ?? (await freePort());
      site.gatewayInternalPort = await freePort();
      for (const name of [...services, 'gateway'] as const) {
        const port = name === 'gateway' ? site.gatewayInternalPort : site.ports[name]!;
        parts.set(
          name,
          launch({
            name,
            ...deployedCommand(name),
            env: deployedEnv(name, site, extraEnv[name]),
            readyUrl: `http://127.0.0.1:${port}/readyz`,
          }),
        );
      }
    }
    for (const name of site ? [] : services) {
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
    const [gatewayPort, internalPort] = site
      ? [site.ports.gateway!, site.gatewayInternalPort]
      : [gatewayPortGiven ?? (await freePort()), await freePort()];
    if (!site)
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
    // Generous: the machine is shared, and on a MongoDB-wire server each service first creates its indexes.
    for (const part of parts.values()) await waitReady(part.handle, part.readyUrl, 90_000);
    const partOf = (name: PartName) => {
      const part = parts.get(name);
      if (!part) throw new Error(`${name} is not part of this cluster`);
      return part;
    };
    return {
      gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
      adminToken,
      natsUrl: site
        ? `nats://identity:${site.natsPasswords.identity}@127.0.0.1:${natsPort}`
        : `nats://127.0.0.1:${natsPort}`,
      services: [...parts.keys()],
      storeDir: (name) => join(dataDir, `${name}-store`),
      env: (name) => ({ ...partOf(name).env }),
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
        if (natsConf) rmSync(join(dataDir, 'nats-conf', 'jetstream'), { recursive: true, force: true });
        nats = await startNats(natsPort, natsDir, natsConf);
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
