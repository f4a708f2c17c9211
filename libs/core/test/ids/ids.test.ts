import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { randomId, randomToken, sha256Hex, timingSafeEqualHex } from '../../src/ids/index.js';

describe('randomToken', () => {
  it('is 32 random bytes in base64url: 43 characters, no padding', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('differs every time', () => {
    const tokens = new Set(Array.from({ length: 1000 }, randomToken));
    expect(tokens.size).toBe(1000);
  });
});

describe('sha256Hex', () => {
  it('is the lower-case hex SHA-256 of the UTF-8 text', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('é')).toBe(
      createHash('sha256')
        .update(Buffer.from([0xc3, 0xa9]))
        .digest('hex'),
    );
  });
});

describe('timingSafeEqualHex', () => {
  const hash = sha256Hex('token');

  it('is true only for the same hash', () => {
    expect(timingSafeEqualHex(hash, sha256Hex('token'))).toBe(true);
    expect(timingSafeEqualHex(hash, sha256Hex('other'))).toBe(false);
  });

  it('is false, without throwing, for different lengths', () => {
    expect(timingSafeEqualHex(hash, hash.slice(0, -1))).toBe(false);
    expect(timingSafeEqualHex(hash, '')).toBe(false);
  });

  it('does not treat non-hex junk as equal', () => {
    expect(timingSafeEqualHex('zz', 'yy')).toBe(false);
    expect(timingSafeEqualHex('ab', 'AB')).toBe(false);
  });
});

describe('randomId', () => {
  it('is a v4 UUID, different every time', () => {
    expect(randomId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(randomId()).not.toBe(randomId());
  });
});
