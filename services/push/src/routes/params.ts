// Parameter shapes of the device endpoints: query, form or JSON; the last value wins when a name is
// repeated. Each failure is a 400 naming the parameter (docs/api/push.md, "Conventions").
import { z } from 'zod';
import { badRequest } from '@murmur/core';
import { lastValue } from '@murmur/http';
import { canonicalDeviceToken, canonicalPushEnv, MAX_APP_NAME, validAppName } from '../domain/params.js';

function scalar(raw: unknown, name: string): string | undefined {
  const value = lastValue(raw);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw badRequest(`${name}: must be a string`, name);
  return value;
}

const required = (name: string) => (raw: unknown) => {
  const value = scalar(raw, name);
  if (value === undefined || value === '') throw badRequest(`${name}: is required`, name);
  return value;
};

export const pushEnvParam = z.unknown().transform((raw) => {
  const env = canonicalPushEnv(required('push_env')(raw));
  if (!env) throw badRequest('push_env: must be production or sandbox (or prod, dev)', 'push_env');
  return env;
});

const tokenRule = (value: string) => {
  const token = canonicalDeviceToken(value);
  if (!token)
    throw badRequest('device_token: must be 16 to 512 characters of A-Z a-z 0-9 : _ -', 'device_token');
  return token;
};

export const deviceTokenParam = z.unknown().transform((raw) => tokenRule(required('device_token')(raw)));

export const optionalDeviceTokenParam = z
  .unknown()
  .optional()
  .transform((raw) => {
    const value = scalar(raw, 'device_token');
    return value === undefined || value === '' ? undefined : tokenRule(value);
  });

/** Absent or empty → the default app. */
export const appNameParam = z
  .unknown()
  .optional()
  .transform((raw) => {
    const value = scalar(raw, 'app_name');
    if (value === undefined || value === '') return undefined;
    if (!validAppName(value))
      throw badRequest(`app_name: must be 1 to ${MAX_APP_NAME} characters`, 'app_name');
    return value;
  });

export const deviceInput = z.object({
  device_token: deviceTokenParam,
  push_env: pushEnvParam,
  app_name: appNameParam,
});

export const infoInput = z.object({
  push_env: pushEnvParam,
  app_name: appNameParam,
  device_token: optionalDeviceTokenParam,
});
