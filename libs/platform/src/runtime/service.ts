// A service is a definition (name, config schema, create) that one function starts: the same path
// for a standalone process, the single-process launcher and tests.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { connectBus } from '../bus/index.js';
import type { Bus } from '../bus/port.js';
import { loadConfig, servicePortVar, type BaseConfig } from '../config/index.js';
import { createLogger } from '../log/index.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/port.js';
import { systemClock, type Clock } from '../time/clock.js';

export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  store: Store;
  bus: Bus;
  /** The process clock: pass it to createHttpApp, limits, job queues. systemClock unless a test injects one. */
  clock: Clock;
}

export interface ServiceInstance {
  /** Built with createHttpApp; not yet listening. */
  app: FastifyInstance;
  /** After the app listens: start job workers, subscriptions… */
  start?(): Promise<void>;
  /** After HTTP has drained: stop workers (let running jobs finish). */
  stop?(): Promise<void>;
}

export interface ServiceDefinition<C> {
  name: string;
  configSchema: z.ZodType<C>;
  create(ctx: ServiceContext<C>): Promise<ServiceInstance>;
}

export interface StartOptions<C> {
  /** Read when `config` is not given. Default process.env. */
  env?: NodeJS.ProcessEnv;
  config?: C;
  /** Given resources are shared: stop() leaves them open. */
  store?: Store;
  bus?: Bus;
  logger?: Logger;
  /** Default systemClock; tests inject a TestClock. */
  clock?: Clock;
  /** Default: config HOST, else 127.0.0.1. */
  host?: string;
  /** Default: config `<NAME>_PORT`, else 0 (any free port). */
  port?: number;
}

export interface RunningService<C> {
  app: FastifyInstance;
  config: C;
  logger: Logger;
  /** `http://host:port` reachable from this machine (a wildcard host becomes loopback). */
  url: string;
  port: number;
  /** Drains HTTP, stops the service, closes the bus and store it opened. Idempotent. */
  stop(): Promise<void>;
}

type LooseConfig = Partial<BaseConfig> & Record<string, unknown>;

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startService<C>(
  def: ServiceDefinition<C>,
  options: StartOptions<C> = {},
): Promise<RunningService<C>> {
  const config = options.config ?? loadConfig(def.configSchema, options.env ?? process.env);
  const loose = config as LooseConfig;
  const logger = options.logger ?? createLogger({ service: def.name, level: loose.LOG_LEVEL });
  const cleanups: Array<[string, () => Promise<void>]> = [];

  const closeAll = async (): Promise<void> => {
    let first: unknown;
    for (const [what, close] of cleanups.reverse()) {
      try {
        await close();
      } catch (err) {
        logger.error({ err }, `closing ${what} failed`);
        first ??= err;
      }
    }
    cleanups.length = 0;
    if (first !== undefined) throw first;
  };

  try {
    const store =
      options.store ??
      // The logger hears a migration of an older data directory and replaced MongoDB indexes.
      (await openStore(String(loose.STORE_URL ?? 'memory:'), { service: def.name, logger }));
    if (!options.store) cleanups.push(['store', () => store.close()]);
    const bus =
      options.bus ??
      (await connectBus(String(loose.BUS_URL ?? 'memory:'), {
        service: def.name,
        logger,
        streamReplicas: loose.BUS_STREAM_REPLICAS,
      }));
    if (!options.bus) cleanups.push(['bus', () => bus.close()]);

    const instance = await def.create({ config, logger, store, bus, clock: options.clock ?? systemClock });
    if (instance.stop) cleanups.push(['service', () => instance.stop!()]);
    cleanups.push(['http', () => instance.app.close()]);

    const configuredPort = loose[servicePortVar(def.name)];
    const host = options.host ?? (typeof loose.HOST === 'string' ? loose.HOST : '127.0.0.1');
    const port = options.port ?? (typeof configuredPort === 'number' ? configuredPort : 0);
    await instance.app.listen({ host, port });
    const address = instance.app.server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    await instance.start?.();

    let stopping: Promise<void> | undefined;
    return {
      app: instance.app,
      config,
      logger,
      url: `http://${urlHost(host)}:${actualPort}`,
      port: actualPort,
      stop: () => (stopping ??= closeAll()),
    };
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw err;
  }
}
