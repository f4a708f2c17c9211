#!/usr/bin/env node
// Writes the gateway's route table (gateway/src/routes.generated.ts) from the routes every service of the
// build registers: each service's HTTP app is built, on an in-memory store and bus and never listening,
// and what it registered (registeredRoutes of libs/http) goes through gateway/src/route-table-generator.ts.
// Reads the built packages (run it after `tsc -b`; `npm run build` runs both, scripts/murmur.mjs).
//
//   node scripts/generate-gateway-routes.mjs          rewrite the file when it differs
//   node scripts/generate-gateway-routes.mjs --check  only say whether it differs (exit status 1 if so)
//
// test-e2e/test/gateway-routes-every-service-route.test.ts makes the same check from the sources.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLogger, loadConfig, systemClock } from '@murmur/core';
import { registeredRoutes } from '@murmur/http';
import { connectBus, openStore } from '@murmur/runtime';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Neither the services (through the CLI's list of them) nor the gateway are dependencies of the root.
const load = (path) => import(pathToFileURL(join(root, path)).href);

const check = process.argv.includes('--check');
const { services } = await load('cli/dist/services.js');
const { generateRouteTable, GENERATED_ROUTES_FILE, GENERATE_ROUTES_COMMAND, ROUTE_LISTING_ENV } = await load(
  'gateway/dist/route-table-generator.js',
);

/** Each service's registered routes, from its app built as the runtime builds it, then closed. */
async function listServiceRoutes() {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-routes-'));
  const env = { ...ROUTE_LISTING_ENV, DATA_DIR: dataDir };
  const logger = createLogger({ service: 'generate-gateway-routes', level: 'silent' });
  const bus = await connectBus(`memory:generate-gateway-routes-${process.pid}`, {
    service: 'generator',
    logger,
  });
  const listed = [];
  try {
    for (const def of services) {
      const config = loadConfig(def.configSchema, env);
      const store = await openStore(config.STORE_URL, { service: def.name, logger });
      try {
        const instance = await def.create({ config, logger, store, bus, clock: systemClock });
        listed.push({ service: def.name, routes: [...registeredRoutes(instance.app)] });
        await instance.app.close();
        await instance.stop?.();
      } finally {
        await store.close();
      }
    }
  } finally {
    await bus.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return listed;
}

const file = join(root, GENERATED_ROUTES_FILE);
const wanted = generateRouteTable(await listServiceRoutes());
let current = '';
try {
  current = readFileSync(file, 'utf8');
} catch {
  // absent: written below, or reported by --check
}
if (current !== wanted && check) {
  console.error(
    `${GENERATED_ROUTES_FILE} differs from what the services' routes generate: run \`${GENERATE_ROUTES_COMMAND}\` ` +
      '(or `npm run build`) and commit it',
  );
  process.exitCode = 1;
} else if (current !== wanted) {
  writeFileSync(file, wanted);
  console.error(`${GENERATED_ROUTES_FILE} regenerated from the services' routes: commit it`);
}
