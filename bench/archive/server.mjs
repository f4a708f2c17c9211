#!/usr/bin/env node
// The system under test of the archive benchmark, in its own process: identity, publishing, archive
// and the gateway wired as in single-process mode (one in-memory bus), archive on the embedded store
// (file: by default, in a temporary directory). Started by run.mjs with `fork`; it reports the
// gateway's URL, a user's token and site over IPC, and answers `memory` and `stop`.
import { performance } from 'node:perf_hooks';
import { loadBuilt as load, sendMemory } from '../lib/server.mjs';

// What these scripts use of the libs: createLogger, loadConfig, formatOffsetTime (core); startService,
// connectBus, openStore (runtime); EmbeddedStore (store-embedded).
const platform = {
  ...(await load('libs/core/dist/index.js')),
  ...(await load('libs/runtime/dist/index.js')),
  ...(await load('libs/store-embedded/dist/index.js')),
};
const { identityService } = await load('services/identity/dist/index.js');
const { publishingService } = await load('services/publishing/dist/index.js');
const { createArchiveService } = await load('services/archive/dist/index.js');
const { createGateway, gatewayConfigSchema } = await load('gateway/dist/index.js');

const dataDir = process.env.BENCH_DATA_DIR;
const storeKind = process.env.BENCH_STORE ?? 'file';
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn';
const logger = platform.createLogger({ service: 'bench', level: logLevel });
const ADMIN = 'bench-admin-token-0123456789';

const bus = await platform.connectBus('memory:', { service: 'bench', logger });
const gatewayConfig = (publicUrl) =>
  platform.loadConfig(gatewayConfigSchema, {
    PUBLIC_URL: publicUrl,
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: logLevel,
  });
const gatewayPort = Number(process.env.BENCH_GATEWAY_PORT);
const publicUrl = `http://127.0.0.1:${gatewayPort}`;
const common = { PUBLIC_URL: publicUrl, LOG_LEVEL: logLevel, DATA_DIR: dataDir, MURMUR_ADMIN_TOKEN: ADMIN };
const start = (def, env = {}) =>
  platform.startService(def, {
    env: { ...common, STORE_URL: 'memory:', ...env },
    bus,
    logger,
    port: 0,
    host: '127.0.0.1',
  });

const identity = await start(identityService);
const publishing = await start(publishingService);
const archive = await start(createArchiveService(), {
  STORE_URL: storeKind === 'file' ? `file:${dataDir}` : `memory:bench-${process.pid}`,
});
const gateway = await createGateway({
  config: gatewayConfig(publicUrl),
  targets: { identity: identity.url, publishing: publishing.url, archive: archive.url },
  logger,
});
await gateway.listen({ port: gatewayPort, host: '127.0.0.1' });

// A user, and the default site publishing creates for them.
const created = await (
  await fetch(`${identity.url}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', email: 'ada@example.com' }),
  })
).json();
let site;
for (let i = 0; i < 200 && !site; i++) {
  const res = await fetch(`${publishing.url}/admin/sites?username=ada`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  site = (await res.json()).sites?.[0];
  if (!site) await new Promise((r) => setTimeout(r, 25));
}
if (!site) throw new Error('publishing never created the default site');

process.send({ gatewayUrl: publicUrl, archiveUrl: archive.url, token: created.token, siteId: site.id });

process.on('message', async (message) => {
  if (message === 'memory') sendMemory();
  if (message && typeof message === 'object' && 'inject' in message) {
    // The same requests answered by the archive app in-process (no sockets, no gateway): what the
    // service itself costs, apart from the machine's network stack and the proxy.
    const samples = [];
    const { urls, warmup } = message.inject;
    for (const [i, url] of urls.entries()) {
      const started = performance.now();
      const res = await archive.app.inject({ method: 'GET', url });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
      if (i >= warmup) samples.push(performance.now() - started);
    }
    process.send({ injected: samples });
  }
  if (message === 'stop') {
    await gateway.close();
    await archive.stop();
    await publishing.stop();
    await identity.stop();
    await bus.close();
    process.send({ stopped: true });
    process.exit(0);
  }
});
