// The standalone entry of a service process (services/<name>/src/main.ts calls runServiceMain).
import { ConfigError, loadConfig, type BaseConfig, type Logger, createLogger } from '@murmur/core';
import { startService, type RunningService, type ServiceDefinition } from './service.js';

export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  /** For tests; default process.exit. */
  exit?: (code: number) => void;
  /** For tests; default process.stderr. */
  stderr?: { write(text: string): unknown };
  logger?: Logger;
  signals?: readonly NodeJS.Signals[];
}

/**
 * Loads the environment, starts the service on HOST and `<NAME>_PORT`, and on SIGTERM/SIGINT stops
 * it gracefully within SHUTDOWN_TIMEOUT_MS, then exits. A ConfigError prints its message (no stack)
 * and exits 1. Resolves once the service is listening (or has exited).
 */
export async function runServiceMain<C extends BaseConfig>(
  def: ServiceDefinition<C>,
  options: MainOptions = {},
): Promise<RunningService<C> | undefined> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const stderr = options.stderr ?? process.stderr;

  let config: C;
  try {
    config = loadConfig(def.configSchema, options.env ?? process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    stderr.write(`${def.name}: ${err.message}\n`);
    exit(1);
    return undefined;
  }
  const logger = options.logger ?? createLogger({ service: def.name, level: config.LOG_LEVEL });

  let running: RunningService<C>;
  try {
    running = await startService(def, { config, logger });
  } catch (err) {
    logger.fatal({ err }, 'service failed to start');
    exit(1);
    return undefined;
  }
  logger.info({ url: running.url }, `${def.name} listening on ${running.url}`);

  const timeoutMs = config.SHUTDOWN_TIMEOUT_MS;
  const signals = options.signals ?? (['SIGTERM', 'SIGINT'] as const);
  let shuttingDown = false;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  const finish = (code: number) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    for (const s of signals) process.removeListener(s, onSignal);
    exit(code);
  };
  function onSignal(signal: NodeJS.Signals) {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: exiting now');
      finish(1);
      return;
    }
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'graceful shutdown timed out');
      finish(1);
    }, timeoutMs);
    running.stop().then(
      () => {
        logger.info('stopped');
        finish(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        finish(1);
      },
    );
  }
  for (const s of signals) process.on(s, onSignal);
  return running;
}
