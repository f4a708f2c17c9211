// The parameter rules of the device endpoints (docs/api/push.md, "Conventions"): pure functions, so
// the routes and the tests share them.
import type { PushEnv } from '../store/index.js';

/** Canonical environments and the aliases older iOS clients send. */
const PUSH_ENV_ALIASES: Readonly<Record<string, PushEnv>> = {
  production: 'production',
  sandbox: 'sandbox',
  prod: 'production',
  dev: 'sandbox',
};

/** `production`, `sandbox`, `prod` or `dev` → the canonical form; anything else → null. */
export function canonicalPushEnv(raw: string): PushEnv | null {
  return Object.hasOwn(PUSH_ENV_ALIASES, raw) ? PUSH_ENV_ALIASES[raw]! : null;
}

const TOKEN = /^[A-Za-z0-9:_-]{16,512}$/;
const HEX = /^[0-9A-Fa-f]+$/;

/** 16–512 characters of `[A-Za-z0-9:_-]`; hex tokens lower-cased (clients send either case). Else null. */
export function canonicalDeviceToken(raw: string): string | null {
  if (!TOKEN.test(raw)) return null;
  return HEX.test(raw) ? raw.toLowerCase() : raw;
}

export const MAX_APP_NAME = 100;

/** App names are matched exactly; at most 100 characters, no control characters. */
export function validAppName(raw: string): boolean {
  // eslint-disable-next-line no-control-regex
  return raw.length >= 1 && raw.length <= MAX_APP_NAME && !/[\u0000-\u001f\u007f]/.test(raw);
}

/** The name a device registered without `app_name` gets while no app is marked default. */
export const FALLBACK_APP_NAME = 'default';

/** At most this many devices per user; registering one more drops the oldest. */
export const MAX_DEVICES_PER_USER = 100;
