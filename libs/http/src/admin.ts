// The operator API (`/admin/*` of every service) is guarded by one shared secret, MURMUR_ADMIN_TOKEN,
// sent as `Authorization: Bearer …` (the `murmur` CLI does). Compared as SHA-256 hashes in constant
// time, so neither the length nor a prefix of the secret leaks by timing. Unset: the API is disabled.
import type { FastifyInstance } from 'fastify';
import { forbidden, unauthorized, sha256Hex, timingSafeEqualHex } from '@murmur/core';
import { bearerToken } from './auth.js';

/**
 * Whether an `Authorization` header carries the admin token (false when none is configured): for a route
 * that serves the operator as well as users (the archive's import).
 */
export function carriesAdminToken(
  authorization: string | undefined,
  adminToken: string | undefined,
): boolean {
  const given = bearerToken(authorization);
  return !!adminToken && given !== undefined && timingSafeEqualHex(sha256Hex(given), sha256Hex(adminToken));
}

/** Adds the admin-token check to every route of `scope` (register the admin routes in their own scope). */
export function requireAdminToken(scope: FastifyInstance, adminToken: string | undefined): void {
  scope.addHook('onRequest', async (request) => {
    if (!adminToken) throw forbidden('The admin API is disabled: set MURMUR_ADMIN_TOKEN.');
    if (!carriesAdminToken(request.headers.authorization, adminToken)) {
      throw unauthorized('A valid admin token is required (Authorization: Bearer $MURMUR_ADMIN_TOKEN).');
    }
  });
}
