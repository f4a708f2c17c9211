// Without MURMUR_ADMIN_TOKEN the operator API is switched off.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity({ MURMUR_ADMIN_TOKEN: '' });
});
afterAll(() => h.stop());

describe('admin API without MURMUR_ADMIN_TOKEN', () => {
  test.each([
    ['GET', '/admin/users'],
    ['POST', '/admin/users'],
    ['POST', '/admin/apps'],
    ['DELETE', '/admin/tokens/1'],
  ] as const)('%s %s → 403 saying how to enable it, whatever the credentials', async (method, url) => {
    for (const headers of [{}, { authorization: 'Bearer anything-at-all-0123456789' }] as Array<
      Record<string, string>
    >) {
      const res = await h.inject({
        method,
        url,
        headers,
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'The admin API is disabled: set MURMUR_ADMIN_TOKEN.' });
    }
  });
});
