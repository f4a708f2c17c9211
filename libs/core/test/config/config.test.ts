import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import {
  ConfigError,
  SERVICE_DEFAULT_PORTS,
  SERVICE_NAMES,
  baseConfigShape,
  envVar,
  loadConfig,
  serviceConfigShape,
  servicePortVar,
  serviceUrlVar,
} from '../../src/config/index.js';

const base = z.object(baseConfigShape);

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig defaults', () => {
  it('fills every base variable from an empty environment', () => {
    expect(loadConfig(base, {})).toEqual({
      LOG_LEVEL: 'info',
      PORT: 8080,
      PUBLIC_URL: 'http://localhost:8080',
      DATA_DIR: './data',
      STORE_URL: 'file:./data',
      BUS_URL: 'memory:',
      BUS_STREAM_REPLICAS: 1,
      OUTBOUND_ALLOW_PRIVATE: false,
      OUTBOUND_ALLOW_HOSTS: [],
      TRUST_PROXY: ['loopback'],
      SHUTDOWN_TIMEOUT_MS: 10_000,
    });
  });

  it('derives PUBLIC_URL from PORT and STORE_URL from DATA_DIR', () => {
    const c = loadConfig(base, { PORT: '9000', DATA_DIR: '/var/lib/murmur' });
    expect(c.PUBLIC_URL).toBe('http://localhost:9000');
    expect(c.STORE_URL).toBe('file:/var/lib/murmur');
  });

  it('keeps explicit PUBLIC_URL and STORE_URL over derived ones', () => {
    const c = loadConfig(base, {
      PORT: '9000',
      PUBLIC_URL: 'https://murmur.example/',
      DATA_DIR: '/x',
      STORE_URL: 'mongodb://db:27017',
    });
    expect(c.PUBLIC_URL).toBe('https://murmur.example');
    expect(c.STORE_URL).toBe('mongodb://db:27017');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig(base, { PORT: '', LOG_LEVEL: ' ' }).PORT).toBe(8080);
  });

  it('parses booleans, lists and trust proxy forms', () => {
    const c = loadConfig(base, {
      OUTBOUND_ALLOW_PRIVATE: 'TRUE',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1, feeds.test,10.0.0.0/8,',
      TRUST_PROXY: '10.0.0.1,192.168.0.0/16',
      BUS_URL: 'nats://a:4222,nats://b:4222',
      STORE_URL: 'memory:',
    });
    expect(c.OUTBOUND_ALLOW_PRIVATE).toBe(true);
    expect(c.OUTBOUND_ALLOW_HOSTS).toEqual(['127.0.0.1', 'feeds.test', '10.0.0.0/8']);
    expect(c.TRUST_PROXY).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(loadConfig(base, { TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig(base, { OUTBOUND_ALLOW_PRIVATE: '0' }).OUTBOUND_ALLOW_PRIVATE).toBe(false);
  });
});

describe('ConfigError', () => {
  const cases: Array<[string, string, string]> = [
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    ['PORT', 'abc', 'PORT: must be an integer from 1 to 65535 (got "abc")'],
    ['PORT', '70000', 'PORT: must be an integer from 1 to 65535 (got "70000")'],
    ['PUBLIC_URL', 'ftp://x', 'PUBLIC_URL: must be an absolute http(s) URL (got "ftp://x")'],
    ['PUBLIC_URL', 'localhost:8080', 'PUBLIC_URL: must be an absolute http(s) URL (got "localhost:8080")'],
    [
      'STORE_URL',
      'redis://x',
      'STORE_URL: must start with file:, memory:, mongodb://, mongodb+srv:// (got "redis://x")',
    ],
    ['BUS_URL', 'amqp://x', 'BUS_URL: must be memory:[name] or nats://host:port[,nats://…] (got "amqp://x")'],
    ['BUS_STREAM_REPLICAS', '7', 'BUS_STREAM_REPLICAS: must be an integer from 1 to 5 (got "7")'],
    ['OUTBOUND_ALLOW_PRIVATE', 'yes', 'OUTBOUND_ALLOW_PRIVATE: must be 1, 0, true or false (got "yes")'],
    [
      'OUTBOUND_ALLOW_HOSTS',
      'a b',
      'OUTBOUND_ALLOW_HOSTS: must be a comma list of host names, IP addresses or CIDRs ("a b" is not) (got "a b")',
    ],
    [
      'TRUST_PROXY',
      '10.0.0.999',
      'TRUST_PROXY: must be true, false, or a comma list of IP addresses, CIDRs, loopback, linklocal, uniquelocal (got "10.0.0.999")',
    ],
    ['SHUTDOWN_TIMEOUT_MS', '1.5', 'SHUTDOWN_TIMEOUT_MS: must be an integer from 0 to 600000 (got "1.5")'],
  ];
  it.each(cases)('names %s with the reason and the value', (name, value, line) => {
    const err = errorOf(() => loadConfig(base, { [name]: value }));
    expect(err.message).toContain(line);
    expect(err.issues.map((i) => i.variable)).toEqual([name]);
  });

  it('lists several bad variables at once', () => {
    const err = errorOf(() => loadConfig(base, { PORT: '0', LOG_LEVEL: 'x', BUS_URL: 'kafka://k' }));
    expect(err.issues.map((i) => i.variable).sort()).toEqual(['BUS_URL', 'LOG_LEVEL', 'PORT']);
    expect(err.message.split('\n')).toHaveLength(4);
    expect(err.message).toMatch(/^Invalid configuration:\n/);
  });

  it('does not blame a derived default for its source variable', () => {
    const err = errorOf(() => loadConfig(base, { PORT: '99999' }));
    expect(err.issues.map((i) => i.variable)).toEqual(['PORT']);
  });

  it('reports missing required variables without a value', () => {
    const schema = z.object({ ...baseConfigShape, SMTP_URL: envVar.string() });
    const err = errorOf(() => loadConfig(schema, {}));
    expect(err.message).toContain('SMTP_URL: is required');
  });

  it('never prints secret values or URL passwords', () => {
    const schema = z.object({
      ...baseConfigShape,
      APNS_KEY: envVar.string().refine((s) => s.length > 40, 'must be a .p8 key'),
      LLM_API_TOKEN: envVar.int({ min: 1, max: 2 }),
    });
    const err = errorOf(() =>
      loadConfig(schema, { APNS_KEY: 'hunter2', LLM_API_TOKEN: 'sekrit', STORE_URL: 'postgres://u:pw@db/x' }),
    );
    expect(err.message).toContain('APNS_KEY: must be a .p8 key (hidden)');
    expect(err.message).toContain('LLM_API_TOKEN: must be an integer from 1 to 2 (hidden)');
    expect(err.message).toContain('(got "postgres://u:***@db/x")');
    expect(err.message).not.toMatch(/hunter2|sekrit|pw@/);
  });
});

describe('service variables', () => {
  it('names ports and URLs per service', () => {
    expect(SERVICE_NAMES).toHaveLength(10);
    expect(SERVICE_DEFAULT_PORTS.federation).toBe(8089);
    expect(SERVICE_DEFAULT_PORTS.websub).toBe(8090);
    expect(servicePortVar('identity')).toBe('IDENTITY_PORT');
    expect(serviceUrlVar('publishing')).toBe('PUBLISHING_URL');
    expect(SERVICE_DEFAULT_PORTS.push).toBe(8088);
  });

  it('adds <NAME>_PORT and HOST with defaults', () => {
    const schema = z.object({ ...baseConfigShape, ...serviceConfigShape('reader') });
    const c = loadConfig(schema, {});
    expect(c.READER_PORT).toBe(8082);
    expect(c.HOST).toBe('0.0.0.0');
    expect(loadConfig(schema, { READER_PORT: '9100', HOST: '127.0.0.1' })).toMatchObject({
      READER_PORT: 9100,
      HOST: '127.0.0.1',
    });
    expect(errorOf(() => loadConfig(schema, { READER_PORT: 'x' })).message).toContain(
      'READER_PORT: must be an integer',
    );
  });
});
