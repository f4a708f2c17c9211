// The gateway's own endpoints. /healthz is public; /readyz and /metrics are on the internal server only.
// /readyz is the deployment's readiness: every configured service must
// answer its own /readyz; a service this deployment does not run is reported `absent` and is not a
// failure (a reader-only or identity-only install is legitimate).
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { SERVICE_NAMES, type ServiceName } from '@murmur/core';
import type { Targets } from './config.js';
import type { GatewayMetrics } from './metrics.js';

export type ServiceReadiness = 'ready' | 'unready' | 'unreachable' | 'absent';

async function probe(baseUrl: string, timeoutMs: number): Promise<ServiceReadiness> {
  try {
    const res = await request(`${baseUrl.replace(/\/+$/, '')}/readyz`, {
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await res.body.dump();
    return res.statusCode === 200 ? 'ready' : 'unready';
  } catch {
    return 'unreachable';
  }
}

export async function checkReadiness(
  targets: Targets,
  timeoutMs: number,
): Promise<{ ready: boolean; services: Record<ServiceName, ServiceReadiness> }> {
  const states = await Promise.all(
    SERVICE_NAMES.map(async (name) => {
      const url = targets[name];
      return [name, url ? await probe(url, timeoutMs) : 'absent'] as const;
    }),
  );
  const services = Object.fromEntries(states) as Record<ServiceName, ServiceReadiness>;
  return { ready: states.every(([, s]) => s === 'ready' || s === 'absent'), services };
}

/** Liveness only: the public port answers it for load balancers; it says nothing about the services. */
export function registerHealthz(app: FastifyInstance): void {
  // Probes must keep working while clients are being throttled.
  app.get('/healthz', { config: { rateLimit: false } }, async () => ({ status: 'ok' }));
}

/**
 * The internal server's endpoints. /readyz fans out to every service and /metrics tells what the
 * deployment serves: from outside they would be a free amplifier and an information leak, so the
 * public port never answers them (for the gateway or any service).
 */
export function registerInternalEndpoints(
  app: FastifyInstance,
  opts: { targets: Targets; readyTimeoutMs: number; metrics: GatewayMetrics },
): void {
  registerHealthz(app);

  app.get('/readyz', async (_request, reply) => {
    const { ready, services } = await checkReadiness(opts.targets, opts.readyTimeoutMs);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', services });
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(opts.metrics.render()),
  );
}
