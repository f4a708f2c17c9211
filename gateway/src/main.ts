// Runs the gateway on its own: configuration from the environment, the public and the internal
// listener, drain on SIGTERM/SIGINT.
import { createLogger, loadConfig, warnWithoutHeapFloor } from '@murmur/core';
import { createGatewayServers } from './app.js';
import { gatewayConfigSchema } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig(gatewayConfigSchema);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  warnWithoutHeapFloor(logger, 'gateway', 'gateway/dist/main.js');
  const { app, internal } = await createGatewayServers({ config, logger });
  await internal.listen({ port: config.GATEWAY_INTERNAL_PORT, host: config.INTERNAL_HOST });
  await app.listen({ port: config.PORT, host: config.HOST });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A stuck connection must not keep the process alive past the operator's limit.
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    Promise.all([app.close(), internal.close()]).then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  // ConfigError messages list every bad variable; print them as they are.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
