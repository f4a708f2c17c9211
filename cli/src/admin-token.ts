// On one machine the operator should not have to invent an admin token before the first start: the
// launcher makes one, keeps it beside the data (mode 0600) and the CLI reads it from there.
import { randomToken } from '@murmur/core';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function adminTokenFile(dataDir: string): string {
  return join(dataDir, 'admin-token');
}

export function readAdminToken(dataDir: string): string | undefined {
  const file = adminTokenFile(dataDir);
  if (!existsSync(file)) return undefined;
  const token = readFileSync(file, 'utf8').trim();
  return token.length > 0 ? token : undefined;
}

/** The configured token, else the stored one, else a new one written to `<dataDir>/admin-token`. */
export function ensureAdminToken(
  dataDir: string,
  configured: string | undefined,
): { token: string; created: boolean } {
  if (configured) return { token: configured, created: false };
  const existing = readAdminToken(dataDir);
  if (existing) return { token: existing, created: false };
  mkdirSync(dataDir, { recursive: true });
  const token = randomToken();
  const file = adminTokenFile(dataDir);
  writeFileSync(file, token + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, created: true };
}
