// BUS_URL may carry a NATS user (nats://reader:secret@nats:4222): accepted, checked, and never shown.
// BUS_STREAM_REPLICAS says how many copies JetStream keeps of each stream.
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, baseConfigShape, loadConfig, showConfigValue } from '../../src/config/index.js';

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

describe('BUS_URL with credentials', () => {
  it('accepts a user and password, on one server or repeated on each', () => {
    expect(loadConfig(base, { BUS_URL: 'nats://reader:s3cret@nats:4222' }).BUS_URL).toBe(
      'nats://reader:s3cret@nats:4222',
    );
    const several = 'nats://reader:s3cret@a:4222,nats://reader:s3cret@b:4222';
    expect(loadConfig(base, { BUS_URL: several }).BUS_URL).toBe(several);
    expect(loadConfig(base, { BUS_URL: 'nats://reader:s3cret@a:4222,nats://b:4222' }).BUS_URL).toBeDefined();
  });

  it('refuses servers naming different users, without echoing the passwords', () => {
    const err = errorOf(() =>
      loadConfig(base, { BUS_URL: 'nats://reader:pwAAA@a:4222,nats://identity:pwBBB@b:4222' }),
    );
    expect(err.issues.map((i) => i.variable)).toEqual(['BUS_URL']);
    expect(err.message).toContain('different credentials');
    expect(err.message).not.toMatch(/pwAAA|pwBBB/);
    expect(err.message).toContain('nats://reader:***@a:4222,nats://identity:***@b:4222');
  });

  it('refuses a password without a user', () => {
    const err = errorOf(() => loadConfig(base, { BUS_URL: 'nats://:s3cret@a:4222' }));
    expect(err.message).toContain('has a password but no user');
    expect(err.message).not.toContain('s3cret');
  });

  it('masks the password of every URL in a list when a value is shown', () => {
    expect(showConfigValue('BUS_URL', 'nats://reader:p1@a:4222,nats://reader:p1@b:4222')).toBe(
      '"nats://reader:***@a:4222,nats://reader:***@b:4222"',
    );
    expect(showConfigValue('STORE_URL', 'mongodb://reader:p2@m1:27017,m2:27017/murmur_reader')).toBe(
      '"mongodb://reader:***@m1:27017,m2:27017/murmur_reader"',
    );
  });
});

describe('BUS_STREAM_REPLICAS', () => {
  it('defaults to 1 and takes 1 to 5', () => {
    expect(loadConfig(base, {}).BUS_STREAM_REPLICAS).toBe(1);
    expect(loadConfig(base, { BUS_STREAM_REPLICAS: '3' }).BUS_STREAM_REPLICAS).toBe(3);
    expect(errorOf(() => loadConfig(base, { BUS_STREAM_REPLICAS: '0' })).message).toContain(
      'BUS_STREAM_REPLICAS: must be an integer from 1 to 5 (got "0")',
    );
    expect(errorOf(() => loadConfig(base, { BUS_STREAM_REPLICAS: '7' })).issues[0]?.variable).toBe(
      'BUS_STREAM_REPLICAS',
    );
  });
});
