// Real services side by side for a test harness: each on the memory store it is given, the test's bus
// and logger, on 127.0.0.1; stopped in reverse order, their stores closed after them.
import type { Bus } from '@murmur/bus';
import { startService, type RunningService, type ServiceDefinition, openStore } from '@murmur/runtime';
import type { Store } from '@murmur/store';
import type { BaseConfig, Clock, Logger } from '@murmur/core';

/** The environment every service of a harness shares: memory stores, the test's bus, no logs. */
export function testServiceEnv(options: {
  busUrl: string;
  publicUrl: string;
  /** MURMUR_ADMIN_TOKEN, for harnesses that call the admin API. */
  adminToken?: string;
}): Record<string, string> {
  return {
    STORE_URL: 'memory:',
    BUS_URL: options.busUrl,
    ...(options.adminToken === undefined ? {} : { MURMUR_ADMIN_TOKEN: options.adminToken }),
    PUBLIC_URL: options.publicUrl,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent-test-data',
  };
}

export interface TestServiceOptions {
  /** The service's store, or the service name to open a fresh memory store for (closed by stop()). */
  store: Store | string;
  /** On top of the group's environment. */
  env?: Record<string, string>;
  /** Instead of the group's bus (a test that makes this service's publishes fail). */
  bus?: Bus;
  clock?: Clock;
  /** Default 0: any free port. */
  port?: number;
}

export interface TestServices {
  /** A fresh memory store for `service`, closed by stop(). */
  open(service: string): Promise<Store>;
  /** Starts `definition`; stop() stops it. */
  start<C extends BaseConfig>(
    definition: ServiceDefinition<C>,
    options: TestServiceOptions,
  ): Promise<RunningService<C>>;
  /** Stops every service started, last first, then closes the stores opened. */
  stop(): Promise<void>;
}

export function testServices(group: { bus: Bus; logger: Logger; env: Record<string, string> }): TestServices {
  const stores: Store[] = [];
  const running: RunningService<BaseConfig>[] = [];
  const open = async (service: string) => {
    const store = await openStore('memory:', { service });
    stores.push(store);
    return store;
  };
  return {
    open,
    async start(definition, options) {
      const service = await startService(definition, {
        env: { ...group.env, ...options.env },
        store: typeof options.store === 'string' ? await open(options.store) : options.store,
        bus: options.bus ?? group.bus,
        logger: group.logger,
        ...(options.clock ? { clock: options.clock } : {}),
        port: options.port ?? 0,
        host: '127.0.0.1',
      });
      running.push(service as RunningService<BaseConfig>);
      return service;
    },
    async stop() {
      for (const service of running.reverse()) await service.stop();
      running.length = 0;
      for (const store of stores) await store.close();
      stores.length = 0;
    },
  };
}
