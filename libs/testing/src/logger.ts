import { pino, type Logger } from 'pino';

/** A silent logger unless TEST_LOG_LEVEL is set (e.g. TEST_LOG_LEVEL=debug to see a failing test's logs). */
export function testLogger(): Logger {
  return pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
}
