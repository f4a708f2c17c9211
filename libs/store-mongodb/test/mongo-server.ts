// Where the MongoDB runs of the store and job suites get a server: MONGO_URL when set, else a
// throw-away `mongo:7` container when a Docker engine answers, else none (and the runs are skipped,
// loudly). Nothing here assumes a server exists.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from '@jest/globals';

export interface MongoTarget {
  url: string;
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

export async function findMongo(): Promise<MongoTarget | undefined> {
  if (process.env.MONGO_URL) return { url: process.env.MONGO_URL, stop: async () => undefined };
  if (!dockerMayBeReachable()) return undefined;
  try {
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    const container = await new GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start();
    return {
      url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (err) {
    process.stderr.write(`MongoDB container could not start: ${(err as Error).message}\n`);
    return undefined;
  }
}

/**
 * `describe(title, …)` against the server, or — with no server — a `describe.skip` whose title says
 * why and how to run it, plus one line on stderr so the skip is visible in any reporter.
 */
export function describeWithMongo(
  target: MongoTarget | undefined,
  title: string,
  define: (url: string) => void,
): void {
  if (!target) {
    process.stderr.write(`${title} — ${MONGO_SKIP_REASON}\n`);
    describe.skip(`${title} — ${MONGO_SKIP_REASON}`, () => define('mongodb://unavailable'));
    return;
  }
  describe(title, () => {
    afterAll(() => target.stop(), 60_000);
    define(target.url);
  });
}
