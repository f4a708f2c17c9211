// /healthz, /readyz and /metrics (docs/operations.md), plus the per-request metrics and log line.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Bus } from '@murmur/bus';
import type { Store } from '@murmur/store';
import { handedOverInProcess } from './hand-off-response.js';
import { RequestMetrics } from './request-metrics.js';

/** Paths probed by orchestrators and scrapers every few seconds: logged at debug only. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

export interface ObservabilityOptions {
  service: string;
  store?: Pick<Store, 'ping'>;
  bus?: Pick<Bus, 'ping'>;
  /** Further dependencies, by name (read when /readyz is asked, so they may be added after the app is built). */
  readiness?: Record<string, { ping(): Promise<void> }>;
  /** Per dependency. Default 2 000 ms. */
  readyTimeoutMs?: number;
  /** Node process metrics (`<service>_process_…`). Default true. */
  processMetrics?: boolean;
}

type CheckResult = 'ok' | 'timeout' | 'failed';

async function check(
  ping: () => Promise<void>,
  timeoutMs: number,
): Promise<{ result: CheckResult; err?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([ping().then(() => 'ok' as const), timeout]);
    return { result: outcome };
  } catch (err) {
    return { result: 'failed', err };
  } finally {
    clearTimeout(timer);
  }
}

function metricPrefix(service: string): string {
  return `${service.replace(/[^a-zA-Z0-9_]/g, '_')}_`;
}

export function registerObservability(app: FastifyInstance, options: ObservabilityOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.processMetrics !== false)
    collectDefaultMetrics({ register: registry, prefix: metricPrefix(options.service) });
  // Counted in plain numbers and written out at scrape time (request-metrics.ts says why).
  const requests = new RequestMetrics(options.service);

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    // Unmatched paths share one label so scanners cannot blow up the series count.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    // Handed over in process by the gateway, which logs the request's line (hand-off-response.ts).
    if (handedOverInProcess(request.raw)) return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (PROBE_PATHS.has(route)) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  });

  app.get('/healthz', async () => ({ status: 'ok' }));

  const readyTimeout = options.readyTimeoutMs ?? 2_000;
  app.get('/readyz', async (request, reply) => {
    const deps = { store: options.store, bus: options.bus, ...options.readiness };
    const checks: Record<string, CheckResult> = {};
    await Promise.all(
      Object.entries(deps).map(async ([name, dep]) => {
        if (!dep) return;
        const { result, err } = await check(() => dep.ping(), readyTimeout);
        checks[name] = result;
        if (result !== 'ok') request.log.warn({ err, dependency: name, result }, 'readiness check failed');
      }),
    );
    if (Object.values(checks).every((r) => r === 'ok')) return { status: 'ready' };
    return reply.code(503).send({ status: 'unready', checks });
  });

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    const registered = await registry.metrics();
    return `${registered}${registered === '' || registered.endsWith('\n\n') ? '' : '\n'}${requests.render()}`;
  });

  return registry;
}
