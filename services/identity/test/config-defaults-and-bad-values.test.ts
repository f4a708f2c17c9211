// Identity's environment: documented defaults, and one clear error per bad variable.
import { describe, expect, test } from '@jest/globals';
import { ConfigError, loadConfig } from '@murmur/core';
import { identityConfigSchema } from '../src/index.js';

describe('identity configuration', () => {
  test('defaults', () => {
    const config = loadConfig(identityConfigSchema, {});
    expect(config).toMatchObject({
      IDENTITY_PORT: 8081,
      MAIL_FROM: 'Murmur <murmur@localhost>',
      APPLE_JWKS_URL: 'https://appleid.apple.com/auth/keys',
      APPLE_CLIENT_IDS: [],
      SIGNIN_TOKEN_TTL_MINUTES: 15,
      SIGNIN_LIMIT_PER_EMAIL_PER_HOUR: 5,
      SIGNIN_LIMIT_PER_IP_PER_HOUR: 20,
      ACCOUNT_LIMIT_PER_IP_PER_MINUTE: 30,
    });
    expect(config.MURMUR_ADMIN_TOKEN).toBeUndefined();
    expect(config.MAIL_URL).toBeUndefined();
  });

  test('lists and URLs are parsed', () => {
    const config = loadConfig(identityConfigSchema, {
      APPLE_CLIENT_IDS: ' com.example.app , com.example.web ',
      MAIL_URL: 'smtps://user:secret@mail.example:465',
    });
    expect(config.APPLE_CLIENT_IDS).toEqual(['com.example.app', 'com.example.web']);
    expect(config.MAIL_URL).toBe('smtps://user:secret@mail.example:465');
  });

  test('bad values are all named at once; secrets are not echoed', () => {
    let error: unknown;
    try {
      loadConfig(identityConfigSchema, {
        MAIL_URL: 'http://user:secret@mail.example',
        MURMUR_ADMIN_TOKEN: 'short',
        SIGNIN_TOKEN_TTL_MINUTES: '0',
        APPLE_CLIENT_IDS: 'com.example.app,not valid',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['MAIL_URL', 'MURMUR_ADMIN_TOKEN', 'SIGNIN_TOKEN_TTL_MINUTES', 'APPLE_CLIENT_IDS']) {
      expect(message).toContain(`${name}: `);
    }
    expect(message).not.toContain('secret');
    expect(message).not.toContain('short');
  });
});
