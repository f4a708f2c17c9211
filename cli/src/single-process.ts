// Single-process mode (docs/architecture.md, run modes): the gateway and every service in one Node process, one shared bus,
// each service with its own store under DATA_DIR. The gateway hands each request to the owning
// service's Fastify instance in process, without a socket (gateway/src/in-process.ts): the same
// gateway hooks and the same service hooks as the distributed mode, one HTTP parse instead of two.
// The services still listen on loopback ports, for the gateway's aggregate /readyz and for direct
// access from this machine. GATEWAY_IN_PROCESS=false proxies over loopback HTTP instead.
import { createGatewayServers, gatewayConfigSchema } from '@murmur/gateway';
import { type Bus } from '@murmur/bus';
import {
  baseConfigShape,
  createLogger,
  envVar,
  loadConfig,
  servicePortVar,
  type LogLevel,
} from '@murmur/core';
import { type HttpApp } from '@murmur/http';
import { connectBus, startService } from '@murmur/runtime';
import { z } from 'zod';
import { ensureAdminToken, adminTokenFile } from './admin-token.js';
import type { BoundAddress } from './banner.js';
import { services } from './services.js';

export const launcherConfigSchema = z.object({
  ...baseConfigShape,
  /**
   * Loopback by default: `murmur start` is Murmur on one machine, for yourself (README.md), and nothing
   * it serves should reach the network until its operator says so. The image sets HOST=0.0.0.0.
   */
  HOST: z.string().default('127.0.0.1'),
  /** Dispatch to the services in process (default) or proxy to their loopback ports over HTTP. */
  GATEWAY_IN_PROCESS: envVar.bool().default(true),
});

export interface SingleProcess {
  /**
   * A URL of the gateway this machine can connect to (http://127.0.0.1:8080 also when it listens on
   * all interfaces); where it really listens is `bound`.
   */
  url: string;
  port: number;
  /** The gateway's socket address as bound: `0.0.0.0` (or `::`) when it listens on all interfaces. */
  bound: BoundAddress;
  /**
   * The gateway's internal server as bound (GATEWAY_INTERNAL_PORT on INTERNAL_HOST, by default
   * http://127.0.0.1:9090): /metrics and the aggregate /readyz, which the public port does not answer.
   */
  internalUrl: string;
  /** Loopback URL of each service. */
  serviceUrls: Record<string, string>;
  adminToken: string;
  /** LOG_LEVEL as validated. */
  logLevel: LogLevel;
  stop(): Promise<void>;
}

export async function startSingleProcess(env: NodeJS.ProcessEnv = process.env): Promise<SingleProcess> {
  const config = loadConfig(launcherConfigSchema, env);
  const logger = createLogger({ service: 'murmur', level: config.LOG_LEVEL });
  const admin = ensureAdminToken(config.DATA_DIR, env.MURMUR_ADMIN_TOKEN);
  if (admin.created)
    logger.info({ file: adminTokenFile(config.DATA_DIR) }, 'created an admin token for the murmur CLI');
  // Eight stores in one process: each SQLite page cache gets 16 MiB, not a lone service's 64
  // (docs/operations.md "Memory"), unless STORE_CACHE_MIB says otherwise.
  const serviceEnv = { STORE_CACHE_MIB: '16', ...env, MURMUR_ADMIN_TOKEN: admin.token };

  const bus: Bus = await connectBus(config.BUS_URL, {
    service: 'murmur',
    logger,
    streamReplicas: config.BUS_STREAM_REPLICAS,
  });
  const started: Array<{ name: string; stop(): Promise<void> }> = [];
  const serviceUrls: Record<string, string> = {};
  const serviceApps: Record<string, HttpApp> = {};
  try {
    for (const def of services) {
      const portVar = servicePortVar(def.name);
      // An explicit <NAME>_PORT pins the loopback port (benchmarks use it); otherwise any free port.
      const port = env[portVar] ? Number(env[portVar]) : 0;
      const running = await startService(def, {
        env: serviceEnv,
        bus,
        logger: createLogger({ service: def.name, level: config.LOG_LEVEL }),
        host: '127.0.0.1',
        port,
      });
      started.push({ name: def.name, stop: running.stop });
      serviceUrls[def.name] = running.url;
      serviceApps[def.name] = running.app;
    }
    const gatewayConfig = loadConfig(gatewayConfigSchema, serviceEnv);
    const { app: gateway, internal } = await createGatewayServers({
      config: gatewayConfig,
      targets: serviceUrls,
      ...(config.GATEWAY_IN_PROCESS ? { inProcess: serviceApps } : {}),
      logger: createLogger({ service: 'gateway', level: config.LOG_LEVEL }),
    });
    // Stopped in reverse: the public gateway first, then its internal server, then the services.
    started.push({ name: 'gateway (internal)', stop: () => internal.close() });
    started.push({ name: 'gateway', stop: () => gateway.close() });
    const internalUrl = await internal.listen({
      host: gatewayConfig.INTERNAL_HOST,
      port: gatewayConfig.GATEWAY_INTERNAL_PORT,
    });
    const address = await gateway.listen({ host: config.HOST, port: config.PORT });
    const socket = gateway.server.address();
    if (socket === null || typeof socket === 'string') throw new Error('the gateway is not on a TCP port');
    const bound = { address: socket.address, port: socket.port };
    let stopped = false;
    return {
      url: address,
      port: bound.port,
      bound,
      internalUrl,
      serviceUrls,
      adminToken: admin.token,
      logLevel: config.LOG_LEVEL,
      async stop() {
        if (stopped) return;
        stopped = true;
        for (const s of started.reverse()) await s.stop();
        await bus.close();
      },
    };
  } catch (err) {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    await bus.close().catch(() => undefined);
    throw err;
  }
}
