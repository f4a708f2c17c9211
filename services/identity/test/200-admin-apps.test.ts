// Registering, listing and removing apps; a removed app can no longer receive sign-in links.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
});
afterAll(() => h.stop());

describe('registered apps', () => {
  test('POST /admin/apps → 201; custom schemes and http(s) URLs are kept exactly as given', async () => {
    const custom = await h.admin('POST', '/admin/apps', { app_name: 'Reader', redirect_url: 'app://signin' });
    expect(custom.statusCode).toBe(201);
    expect(custom.json()).toEqual({ id: 1, app_name: 'Reader', redirect_url: 'app://signin' });
    const web = await h.admin('POST', '/admin/apps', {
      app_name: 'Web',
      redirect_url: 'https://Reader.example/Sign-In',
    });
    expect(web.json()).toEqual({ id: 2, app_name: 'Web', redirect_url: 'https://Reader.example/Sign-In' });
  });

  test('GET /admin/apps lists them', async () => {
    const res = await h.admin('GET', '/admin/apps');
    expect(res.statusCode).toBe(200);
    expect(res.json().apps.map((a: { app_name: string }) => a.app_name)).toEqual(['Reader', 'Web']);
  });

  test('the exact registered string is what sign-in compares against', async () => {
    expect(
      (await h.signin({ email: 'ada@example.com', redirect_url: 'https://Reader.example/Sign-In' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await h.signin({ email: 'ada@example.com', redirect_url: 'https://reader.example/Sign-In' }))
        .statusCode,
    ).toBe(400);
  });

  test('DELETE /admin/apps/{id} → 200 {}; sign-in for that app is then refused', async () => {
    const res = await h.admin('DELETE', '/admin/apps/1');
    expect([res.statusCode, res.json()]).toEqual([200, {}]);
    expect((await h.signin({ email: 'ada@example.com', app_name: 'Reader' })).statusCode).toBe(400);
    expect((await h.admin('DELETE', '/admin/apps/1')).statusCode).toBe(404);
  });
});
