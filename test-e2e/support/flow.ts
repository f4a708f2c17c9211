// The account flow every deployment mode must pass, through the gateway only: create a user with the
// admin API, sign in by email, verify, call an authenticated endpoint, revoke the token, see 401.
import { expect } from '@jest/globals';
import type { SmtpCapture } from '@murmur/testing';

export interface FlowTarget {
  gatewayUrl: string;
  adminToken: string;
  smtp: SmtpCapture;
}

async function call(
  url: string,
  init: { method?: string; token?: string; json?: unknown; form?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body: body ?? null });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON; keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export async function runAccountFlow({ gatewayUrl, adminToken, smtp }: FlowTarget): Promise<void> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const username = `ada${suffix}`;
  const email = `ada.${suffix}@example.test`;

  // 1. The operator creates the account.
  const created = await call(`${gatewayUrl}/admin/users`, {
    method: 'POST',
    token: adminToken,
    json: { username, email, name: 'Ada' },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ username, email });
  expect(typeof created.body.token).toBe('string');
  expect(created.headers.get('x-request-id')).toBeTruthy();

  // 2. Sign in by email: a form body, as mobile apps send it.
  const signin = await call(`${gatewayUrl}/account/signin`, { method: 'POST', form: { email } });
  expect(signin.status).toBe(200);
  expect(signin.body).toEqual({});
  const mail = await smtp.waitFor((m) => m.to.includes(email), 15_000);
  const link = mail.links.find((l) => l.includes('token='));
  expect(link).toBeDefined();
  const emailed = new URL(link!).searchParams.get('token')!;
  expect(emailed.length).toBeGreaterThanOrEqual(43);

  // 3. Exchange the emailed token for an app token.
  const verified = await call(`${gatewayUrl}/account/verify`, { method: 'POST', json: { token: emailed } });
  expect(verified.status).toBe(200);
  expect(verified.body).toMatchObject({ username, has_inkwell: true, plan: 'free' });
  const appToken: string = verified.body.token;
  expect(appToken).not.toBe(emailed);

  // The emailed token works once.
  const reused = await call(`${gatewayUrl}/account/verify`, { method: 'POST', json: { token: emailed } });
  expect(reused.status).toBe(401);

  // 4. An authenticated endpoint accepts the new token (verified over the bus by the platform hook).
  const me = await call(`${gatewayUrl}/account/me`, { token: appToken });
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ username });
  // Twice, so the second answer comes from the verification cache that revocation must clear.
  expect((await call(`${gatewayUrl}/account/me`, { token: appToken })).status).toBe(200);

  // 5. The operator revokes it; the very next request is refused although the cache had it.
  const revoked = await call(`${gatewayUrl}/admin/tokens/revoke`, {
    method: 'POST',
    token: adminToken,
    json: { token: appToken },
  });
  expect(revoked.status).toBe(200);
  await expectEventually(
    async () => (await call(`${gatewayUrl}/account/me`, { token: appToken })).status,
    401,
  );
  const refused = await call(`${gatewayUrl}/account/me`, { token: appToken });
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual({ error: expect.any(String) });
  expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
}

/** Revocation travels as an event; allow it a moment (far below the 10 s cache lifetime). */
async function expectEventually<T>(probe: () => Promise<T>, want: T, withinMs = 2_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last: T = await probe();
  while (last !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    last = await probe();
  }
  expect(last).toBe(want);
}
