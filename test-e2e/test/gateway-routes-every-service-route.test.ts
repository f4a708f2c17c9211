// The gateway answers 404 for any path that is no endpoint of its route table, so a route a service
// registers but the table lacks is unreachable for clients (as the emailed sign-in's confirming POST
// once was). The table is generated from the routes the services register
// (gateway/src/route-table-generator.ts, through scripts/generate-gateway-routes.mjs) and committed:
// this checks the committed table against what the services of the build generate now, and that every
// route a service registers is reached through it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseConfig } from '@murmur/core';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { services } from '@murmur/cli';
import { resolveRoute, resolveSiteHostRoute } from '@murmur/gateway';
import { type Bus } from '@murmur/bus';
import { registeredRoutes, type RegisteredRoute } from '@murmur/http';
import { connectBus, startService, type RunningService } from '@murmur/runtime';
import { testLogger } from '@murmur/testing';
import { routeOverlay } from '../../gateway/src/route-overlay.js';
import {
  GENERATE_ROUTES_COMMAND,
  GENERATED_ROUTES_FILE,
  generateRouteTable,
  ROUTE_LISTING_ENV,
} from '../../gateway/src/route-table-generator.js';
import { repoRoot } from '../support/processes.js';

/** A concrete path for a Fastify pattern: digit parameters become 1, others a plain word, `*` a segment. */
function samplePath({ url, digitParams = [] }: RegisteredRoute): string {
  return url
    .replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => (digitParams.includes(name) ? '1' : 'ada'))
    .replace(/\*/g, 'x');
}

/** The lines only one of two texts has, marked as `diff` would: enough to see what changed. */
function lineChanges(committed: string, generated: string): string {
  const [a, b] = [committed.split('\n'), generated.split('\n')];
  const [inA, inB] = [new Set(a), new Set(b)];
  return [
    ...a.filter((l) => !inB.has(l)).map((l) => `- ${l}`),
    ...b.filter((l) => !inA.has(l)).map((l) => `+ ${l}`),
  ]
    .slice(0, 40)
    .join('\n');
}

let bus: Bus;
let dataDir: string;
const running: Array<RunningService<BaseConfig>> = [];

beforeAll(async () => {
  const logger = testLogger();
  dataDir = mkdtempSync(join(tmpdir(), 'murmur-routes-'));
  bus = await connectBus(`memory:routes-${process.pid}`, { service: 'test', logger });
  for (const def of services) {
    running.push(
      await startService(def, { env: { ...ROUTE_LISTING_ENV, DATA_DIR: dataDir }, bus, logger, port: 0 }),
    );
  }
}, 60_000);

afterAll(async () => {
  for (const service of running.reverse()) await service.stop();
  await bus?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the gateway’s route table and the routes of every service of the build', () => {
  it('the committed table is what the services’ routes generate', () => {
    const generated = generateRouteTable(
      services.map((def, i) => ({ service: def.name, routes: registeredRoutes(running[i]!.app) })),
    );
    const committed = readFileSync(join(repoRoot, GENERATED_ROUTES_FILE), 'utf8');
    if (committed !== generated) {
      throw new Error(
        `${GENERATED_ROUTES_FILE} is not what the services' routes generate: run \`${GENERATE_ROUTES_COMMAND}\` ` +
          `(or \`npm run build\`) and commit it.\n${lineChanges(committed, generated)}`,
      );
    }
  });

  it('every route a service registers is reached through it, at that service', () => {
    const missing: string[] = [];
    for (const [i, def] of services.entries()) {
      for (const route of registeredRoutes(running[i]!.app)) {
        // The gateway answers preflights itself (for the routes that declare crossOrigin).
        if (route.method === 'OPTIONS') continue;
        const path = samplePath(route);
        // A GET route's HEAD goes where the GET goes.
        const method = route.method === 'HEAD' ? 'GET' : route.method;
        const entry =
          routeOverlay[`${def.name} ${method} ${route.url}`] === 'site-hosts-only'
            ? resolveSiteHostRoute(path)
            : resolveRoute(route.method, path);
        if (entry?.service !== def.name)
          missing.push(
            `${def.name}: ${route.method} ${route.url} (as ${path}) → ${entry?.service ?? 'no row'}`,
          );
      }
    }
    expect(missing).toEqual([]);
  });
});
