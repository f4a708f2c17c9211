// The gateway answers 404 for any path that is no endpoint of its route table, so a route a service
// registers but the table lacks is unreachable for clients (as the emailed sign-in's confirming POST
// once was). This holds the table against what every service of the build actually registers.
import type { BaseConfig } from '@murmur/core';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { services } from '@murmur/cli';
import { resolveRoute, resolveSiteHostRoute } from '@murmur/gateway';
import { type Bus } from '@murmur/bus';
import { registeredRoutes } from '@murmur/http';
import { connectBus, startService, type RunningService } from '@murmur/runtime';
import { testLogger } from '@murmur/testing';

// Answered by every service itself and deliberately never by the public gateway.
const OPERATIONAL = new Set(['/healthz', '/readyz', '/metrics']);

/** A concrete path for a Fastify pattern: ids become 1, other parameters a plain word, `*` a segment. */
function samplePath(pattern: string): string {
  return pattern
    .replace(/:([A-Za-z_]+)\(([^)]*)\)/g, '1')
    .replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
      /id$|^(year|month|day|yyyy|mm|dd)$/i.test(name) ? '1' : 'ada',
    )
    .replace(/\*/g, 'x');
}

let bus: Bus;
const running: Array<RunningService<BaseConfig>> = [];

beforeAll(async () => {
  const logger = testLogger();
  bus = await connectBus(`memory:routes-${process.pid}`, { service: 'test', logger });
  for (const def of services) {
    running.push(
      await startService(def, {
        env: {
          STORE_URL: 'memory:',
          PUBLIC_URL: 'http://murmur.test',
          MURMUR_ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
          LOG_LEVEL: 'silent',
          DATA_DIR: '/tmp',
        },
        bus,
        logger,
        port: 0,
      }),
    );
  }
}, 60_000);

afterAll(async () => {
  for (const service of running.reverse()) await service.stop();
  await bus?.close();
});

describe('every route a service registers is in the gateway table, pointing at that service', () => {
  it('for every service of the build', () => {
    const missing: string[] = [];
    for (const [i, def] of services.entries()) {
      for (const { method, url } of registeredRoutes(running[i]!.app)) {
        if (OPERATIONAL.has(url) || method === 'HEAD' || method === 'OPTIONS') continue;
        const path = samplePath(url);
        // Publishing's catch-all serves sites on their own host names, which the gateway routes by Host.
        const entry = url === '/*' ? resolveSiteHostRoute(path) : resolveRoute(method, path);
        if (entry?.service !== def.name)
          missing.push(`${def.name}: ${method} ${url} (as ${path}) → ${entry?.service ?? 'no row'}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
