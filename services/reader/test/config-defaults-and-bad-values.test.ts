// The reader's configuration: documented defaults, and every bad value named in one ConfigError.
import { describe, expect, test } from '@jest/globals';
import { ConfigError, loadConfig } from '@murmur/core';
import { readerConfigSchema } from '../src/index.js';

describe('reader configuration', () => {
  test('defaults', () => {
    const config = loadConfig(readerConfigSchema, {});
    expect(config).toMatchObject({
      READER_PORT: 8082,
      READER_RETENTION_DAYS: 90,
      READER_POLL_DEFAULT_MINUTES: 60,
      READER_POLL_MIN_MINUTES: 15,
      READER_POLL_MAX_MINUTES: 1440,
      READER_POLL_CONCURRENCY: 8,
      READER_FETCH_PER_HOST: 2,
      READER_SUBSCRIPTIONS_PER_USER: 5000,
      READER_SUBSCRIBE_LIMIT_PER_MINUTE: 30,
      READER_IMPORT_LIMIT_PER_HOUR: 5,
      READER_RECAP_LIMIT_PER_MINUTE: 60,
      READER_VIEW_CACHE_USERS: 500,
      READER_LLM_MODEL: 'gpt-4o-mini',
      READER_WEBSUB: true,
      READER_WEBSUB_LEASE_SECONDS: 864_000,
      READER_PARSE_THREAD: false,
    });
    expect(config.READER_LLM_URL).toBeUndefined();
    expect(config.READER_LLM_API_KEY).toBeUndefined();
  });

  test('bad values are all named; the key is never shown', () => {
    let error: unknown;
    try {
      loadConfig(readerConfigSchema, {
        READER_PORT: '0',
        READER_RETENTION_DAYS: 'ninety',
        READER_LLM_URL: 'ftp://llm.example/',
        READER_LLM_API_KEY: ' ',
        READER_WEBSUB_LEASE_SECONDS: '60',
        READER_PARSE_THREAD: 'sometimes',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = (error as ConfigError).issues.map((i) => i.variable).sort();
    expect(variables).toEqual([
      'READER_LLM_URL',
      'READER_PARSE_THREAD',
      'READER_PORT',
      'READER_RETENTION_DAYS',
      'READER_WEBSUB_LEASE_SECONDS',
    ]);
    expect((error as Error).message).not.toContain('sk-');
  });

  test('the minimum polling interval may not exceed the maximum', () => {
    expect(() =>
      loadConfig(readerConfigSchema, { READER_POLL_MIN_MINUTES: '120', READER_POLL_MAX_MINUTES: '60' }),
    ).toThrow(/READER_POLL_MIN_MINUTES: must not be larger than READER_POLL_MAX_MINUTES/);
  });

  test('an API key is hidden in errors', () => {
    expect(() =>
      loadConfig(readerConfigSchema, { READER_LLM_API_KEY: 'sk-secret', READER_PORT: 'x' }),
    ).toThrow(/READER_PORT/);
    try {
      loadConfig(readerConfigSchema, { READER_LLM_API_KEY: 'sk-secret', READER_PORT: 'x' });
    } catch (err) {
      expect((err as Error).message).not.toContain('sk-secret');
    }
  });
});
