// Where the MongoDB runs of the store and job suites get a server: MONGO_URL when set (CI sets it to a
// FerretDB of its own: scripts/ferretdb.mjs), else a throw-away `mongo:7` container when a Docker engine
// answers, else none (and the runs are skipped, loudly — or fail, under REQUIRE_MONGO=1). Nothing here
// assumes a server exists.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from '@jest/globals';
import { MongoClient } from 'mongodb';
import type { Guarantee } from '../../store/test/contract.js';
import { FERRETDB_LACKS } from './ferretdb.js';

export interface MongoTarget {
  url: string;
  /** Which server answers: 'MongoDB 7.0.14', 'FerretDB v1.24.2'. */
  engine: string;
  /** The contract guarantees this server lacks (none on MongoDB), for `itGuaranteed`. */
  lacks: Partial<Record<Guarantee, string>>;
  stop(): Promise<void>;
}

export const MONGO_SKIP_REASON = 'SKIPPED: set MONGO_URL (or run a Docker engine) to run it';

/** Cheap check before loading testcontainers: is there any sign of a container engine? */
function dockerMayBeReachable(): boolean {
  if (process.env.DOCKER_HOST || process.env.TESTCONTAINERS_HOST_OVERRIDE) return true;
  const uid = process.getuid?.();
  const sockets = [
    '/var/run/docker.sock',
    join(homedir(), '.docker', 'run', 'docker.sock'),
    join(homedir(), '.testcontainers.properties'),
    ...(uid === undefined ? [] : [`/run/user/${uid}/docker.sock`, `/run/user/${uid}/podman/podman.sock`]),
  ];
  return sockets.some((p) => existsSync(p));
}

/** Which server answers at `url`: FerretDB says so in buildInfo (`ferretdbVersion`). */
export async function identifyMongo(url: string): Promise<Pick<MongoTarget, 'engine' | 'lacks'>> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    if (typeof info.ferretdbVersion === 'string')
      return { engine: `FerretDB ${info.ferretdbVersion}`, lacks: FERRETDB_LACKS };
    return { engine: `MongoDB ${String(info.version)}`, lacks: {} };
  } finally {
    await client.close();
  }
}

async function target(url: string, stop: () => Promise<void>): Promise<MongoTarget> {
  return { url, stop, ...(await identifyMongo(url)) };
}

export async function findMongo(): Promise<MongoTarget | undefined> {
  if (process.env.MONGO_URL) return target(process.env.MONGO_URL, async () => undefined);
  if (!dockerMayBeReachable()) return undefined;
  try {
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    const container = await new GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start();
    return target(`mongodb://${container.getHost()}:${container.getMappedPort(27017)}`, async () => {
      await container.stop();
    });
  } catch (err) {
    process.stderr.write(`MongoDB container could not start: ${(err as Error).message}\n`);
    return undefined;
  }
}

/**
 * `describe(title, …)` against the server, or — with no server — a `describe.skip` whose title says
 * why and how to run it, plus one line on stderr so the skip is visible in any reporter. Under
 * REQUIRE_MONGO=1 (CI) a missing server is a failing test instead.
 */
export function describeWithMongo(
  target: MongoTarget | undefined,
  title: string,
  define: (url: string, target: MongoTarget) => void,
): void {
  if (!target) {
    if (process.env.REQUIRE_MONGO === '1') {
      describe(title, () => {
        test('a MongoDB server is required (REQUIRE_MONGO=1)', () => {
          throw new Error(
            'REQUIRE_MONGO=1 but MONGO_URL is not set: run the tests through `node scripts/ferretdb.mjs -- npm test`',
          );
        });
      });
      return;
    }
    process.stderr.write(`${title} — ${MONGO_SKIP_REASON}\n`);
    const none: MongoTarget = {
      url: 'mongodb://unavailable',
      engine: 'none',
      lacks: {},
      stop: async () => {},
    };
    describe.skip(`${title} — ${MONGO_SKIP_REASON}`, () => define(none.url, none));
    return;
  }
  describe(`${title} (${target.engine})`, () => {
    afterAll(() => target.stop(), 60_000);
    define(target.url, target);
  });
}
