// The operator API (/admin/*) is guarded by one shared secret, MURMUR_ADMIN_TOKEN. Compared as
// SHA-256 hashes in constant time, so neither the length nor a prefix of the secret leaks by timing.
import type { FastifyInstance } from 'fastify';
import { bearerToken, forbidden, sha256Hex, timingSafeEqualHex, unauthorized } from '@murmur/platform';

export function requireAdminToken(scope: FastifyInstance, adminToken: string | undefined): void {
  const expected = adminToken === undefined ? undefined : sha256Hex(adminToken);
  scope.addHook('onRequest', async (request) => {
    if (expected === undefined) throw forbidden('The admin API is disabled: set MURMUR_ADMIN_TOKEN.');
    const given = bearerToken(request.headers.authorization);
    if (given === undefined || !timingSafeEqualHex(sha256Hex(given), expected)) {
      throw unauthorized('A valid admin token is required (Authorization: Bearer $MURMUR_ADMIN_TOKEN).');
    }
  });
}
