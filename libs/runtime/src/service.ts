// A service is a definition (name, config schema, create) that one function starts: the same path
// for a standalone process, the single-process launcher and tests.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { connectBus } from './connect-bus.js';
import type { Bus } from '@murmur/bus';
import {
  loadConfig,
  servicePortVar,
  type BaseConfig,
  type Logger,
  createLogger,
  systemClock,
  type Clock,
} from '@murmur/core';
import { openStore } from './open-store.js';
import type { Store } from '@murmur/store';

export interface ServiceContext<C extends BaseConfig> {
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

export interface ServiceDefinition<C extends BaseConfig> {
  name: string;
  configSchema: z.ZodType<C>;
  create(ctx: ServiceContext<C>): Promise<ServiceInstance>;
}

export interface StartOptions<C extends BaseConfig> {
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

export interface RunningService<C extends BaseConfig> {
  app: FastifyInstance;
  config: C;
  logger: Logger;
  /** `http://host:port` reachable from this machine (a wildcard host becomes loopback). */
  url: string;
  port: number;
  /** Drains HTTP, stops the service, closes the bus and store it opened. Idempotent. */
  stop(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startService<C extends BaseConfig>(
  def: ServiceDefinition<C>,
  options: StartOptions<C> = {},
): Promise<RunningService<C>> {
  const config = options.config ?? loadConfig(def.configSchema, options.env ?? process.env);
  const logger = options.logger ?? createLogger({ service: def.name, level: config.LOG_LEVEL });
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
      (await openStore(config.STORE_URL, {
        service: def.name,
        logger,
        ...(config.STORE_CACHE_MIB === undefined ? {} : { cacheMiB: config.STORE_CACHE_MIB }),
      }));
    if (!options.store) cleanups.push(['store', () => store.close()]);
    const bus =
      options.bus ??
      (await connectBus(config.BUS_URL, {
        service: def.name,
        logger,
        streamReplicas: config.BUS_STREAM_REPLICAS,
      }));
    if (!options.bus) cleanups.push(['bus', () => bus.close()]);

    const instance = await def.create({ config, logger, store, bus, clock: options.clock ?? systemClock });
    if (instance.stop) cleanups.push(['service', () => instance.stop!()]);
    cleanups.push(['http', () => instance.app.close()]);

    // A service's config has its own `<NAME>_PORT` and `HOST` (serviceConfigShape), named after the
    // service, so they are looked up by name; a test's config may have neither.
    const configuredPort: unknown = Reflect.get(config, servicePortVar(def.name));
    const configuredHost: unknown = Reflect.get(config, 'HOST');
    const host = options.host ?? (typeof configuredHost === 'string' ? configuredHost : '127.0.0.1');
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
