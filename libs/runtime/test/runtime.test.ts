import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { connectBus } from '../src/connect-bus.js';
import { ConfigError, baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';
import { createHttpApp, defineRoute } from '@murmur/http';
import { runServiceMain } from '../src/main.js';
import { startService, type ServiceDefinition } from '../src/service.js';
import { openStore } from '../src/open-store.js';
import { freePort, testLogger, TestClock } from '@murmur/testing';

const configSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('identity'),
  GREETING: envVar.string().default('hello'),
});
type Config = z.infer<typeof configSchema>;

interface Probe {
  events: string[];
  stopDelayMs?: number;
}

function definition(probe: Probe): ServiceDefinition<Config> {
  return {
    name: 'identity',
    configSchema,
    async create({ config, logger, store, bus }) {
      probe.events.push(`create:${config.GREETING}`);
      const closeStore = store.close.bind(store);
      store.close = async () => {
        probe.events.push('store closed');
        await closeStore();
      };
      const closeBus = bus.close.bind(bus);
      bus.close = async () => {
        probe.events.push('bus closed');
        await closeBus();
      };
      const app = await createHttpApp({ service: 'identity', logger, bus, store, processMetrics: false });
      await app.register(async (scope) => {
        defineRoute(scope, {
          method: 'GET',
          url: '/greeting',
          handler: async () => ({ text: config.GREETING }),
        });
      });
      app.addHook('onClose', async () => {
        probe.events.push('http closed');
      });
      return {
        app,
        async start() {
          probe.events.push('started');
        },
        async stop() {
          if (probe.stopDelayMs) await new Promise((r) => setTimeout(r, probe.stopDelayMs));
          probe.events.push('stopped');
        },
      };
    },
  };
}

const env = (extra: Record<string, string> = {}) => ({
  STORE_URL: 'memory:',
  BUS_URL: `memory:rt-${randomUUID()}`,
  LOG_LEVEL: 'silent',
  ...extra,
});

describe('startService', () => {
  it('loads config, opens store and bus, listens, starts; stop drains HTTP, stops, then closes what it opened', async () => {
    const probe: Probe = { events: [] };
    const running = await startService(definition(probe), { env: env({ GREETING: 'hi' }), port: 0 });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${running.url}/greeting`);
    expect(await res.json()).toEqual({ text: 'hi' });
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
    expect(probe.events).toEqual(['create:hi', 'started']);

    await running.stop();
    await running.stop();
    expect(probe.events).toEqual([
      'create:hi',
      'started',
      'http closed',
      'stopped',
      'bus closed',
      'store closed',
    ]);
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });

  it('leaves a store and bus it was given open', async () => {
    const probe: Probe = { events: [] };
    const store = await openStore('memory:', { service: 'identity' });
    const bus = await connectBus(`memory:${randomUUID()}`, { service: 'identity', logger: testLogger() });
    const running = await startService(definition(probe), {
      env: env(),
      store,
      bus,
      logger: testLogger(),
      port: 0,
    });
    await running.stop();
    expect(probe.events).toEqual(['create:hello', 'started', 'http closed', 'stopped']);
    await expect(store.ping()).resolves.toBeUndefined();
    await expect(bus.ping()).resolves.toBeUndefined();
    await bus.close();
    await store.close();
  });

  it('listens on HOST and <NAME>_PORT from the config by default', async () => {
    const port = await freePort();
    const running = await startService(definition({ events: [] }), {
      env: env({ HOST: '127.0.0.1', IDENTITY_PORT: String(port) }),
    });
    expect(running.port).toBe(port);
    expect(running.url).toBe(`http://127.0.0.1:${port}`);
    await running.stop();
  });

  it('passes the clock it is given to create(), the system clock otherwise', async () => {
    const seen: number[] = [];
    const clockDef = (): ServiceDefinition<Config> => ({
      name: 'identity',
      configSchema,
      async create({ logger, clock }) {
        seen.push(clock.nowMs());
        return { app: await createHttpApp({ service: 'identity', logger, processMetrics: false }) };
      },
    });
    const fixed = new TestClock(new Date('2030-01-01T00:00:00Z'));
    const a = await startService(clockDef(), { env: env(), logger: testLogger(), port: 0, clock: fixed });
    await a.stop();
    const b = await startService(clockDef(), { env: env(), logger: testLogger(), port: 0 });
    await b.stop();
    expect(seen[0]).toBe(Date.parse('2030-01-01T00:00:00Z'));
    expect(Math.abs(seen[1]! - Date.now())).toBeLessThan(60_000);
  });

  it('rejects a bad configuration with ConfigError', async () => {
    await expect(
      startService(definition({ events: [] }), { env: env({ IDENTITY_PORT: 'x' }) }),
    ).rejects.toThrow(ConfigError);
  });
});

describe('runServiceMain', () => {
  it('prints a ConfigError without a stack and exits 1', async () => {
    const written: string[] = [];
    const exits: number[] = [];
    const result = await runServiceMain(definition({ events: [] }), {
      env: env({ PORT: 'abc', STORE_URL: 'redis://x' }),
      exit: (code) => exits.push(code),
      stderr: { write: (t: string) => written.push(t) },
    });
    expect(result).toBeUndefined();
    expect(exits).toEqual([1]);
    expect(written.join('')).toBe(
      'identity: Invalid configuration:\n' +
        '  PORT: must be an integer from 1 to 65535 (got "abc")\n' +
        '  STORE_URL: must start with file:, memory:, mongodb://, mongodb+srv:// (got "redis://x")\n',
    );
  });

  it('starts on the configured port and stops gracefully on a signal, then exits 0', async () => {
    const probe: Probe = { events: [] };
    const port = await freePort();
    const exits: number[] = [];
    const running = await runServiceMain(definition(probe), {
      env: env({ HOST: '127.0.0.1', IDENTITY_PORT: String(port) }),
      exit: (code) => exits.push(code),
      logger: testLogger(),
      signals: ['SIGUSR2'],
    });
    expect(running?.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    process.emit('SIGUSR2', 'SIGUSR2');
    const deadline = Date.now() + 5000;
    while (exits.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(exits).toEqual([0]);
    expect(probe.events).toContain('store closed');
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });

  it('exits 1 when the graceful stop outlasts SHUTDOWN_TIMEOUT_MS', async () => {
    const probe: Probe = { events: [], stopDelayMs: 400 };
    const exits: number[] = [];
    const running = await runServiceMain(definition(probe), {
      env: env({ HOST: '127.0.0.1', IDENTITY_PORT: String(await freePort()), SHUTDOWN_TIMEOUT_MS: '50' }),
      exit: (code) => exits.push(code),
      logger: testLogger(),
      signals: ['SIGUSR2'],
    });
    process.emit('SIGUSR2', 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 200));
    expect(exits).toEqual([1]);
    expect(process.listenerCount('SIGUSR2')).toBe(0);
    await running?.stop();
    expect(exits).toEqual([1]);
  });
});
