// The IndieAuth code flow through the gateway only, the way a client and a person's browser drive it
// (HTTP, no browser): open the screen, ask for the emailed link, follow it with the cookie, approve
// with the form's CSRF token, redeem with PKCE, verify, use the token, revoke it, see 401.
import { expect } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import type { SmtpCapture } from '@murmur/testing';

export interface IndieAuthFlowTarget {
  gatewayUrl: string;
  adminToken: string;
  smtp: SmtpCapture;
  /** The PUBLIC_URL the services were given: `iss`, `me` and emailed links are built from it. */
  publicUrl: string;
}

function hidden(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"\\s*/?>`).exec(html);
  if (!match) throw new Error(`no hidden ${name} field in:\n${html.slice(0, 2000)}`);
  return match[1]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** A loopback client: same-origin redirect, nothing to fetch (IndieAuth never fetches it). */
const CLIENT_ID = 'http://127.0.0.1:9/e2e-client/';
const REDIRECT_URI = 'http://127.0.0.1:9/e2e-client/callback';

export async function runIndieAuthFlow({ gatewayUrl, adminToken, smtp, publicUrl }: IndieAuthFlowTarget) {
  const suffix = randomBytes(4).toString('hex');
  const username = `ia${suffix}`;
  const email = `ia.${suffix}@example.test`;
  const created = await fetch(`${gatewayUrl}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, email, name: 'Ada' }),
  });
  expect(created.status).toBe(201);

  // 1. Discovery.
  const meta = (await (await fetch(`${gatewayUrl}/.well-known/oauth-authorization-server`)).json()) as {
    issuer: string;
  };
  expect(meta).toMatchObject({ issuer: `${publicUrl}/`, code_challenge_methods_supported: ['S256'] });

  // 2. The client sends the browser to the screen; without a session it asks for an email.
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    state,
    scope: 'create',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const signinScreen = await fetch(`${gatewayUrl}/indieauth/auth?${query}`);
  expect(signinScreen.status).toBe(200);
  const signinHtml = await signinScreen.text();
  const sent = await fetch(
    `${gatewayUrl}/indieauth/signin`,
    form({ request: hidden(signinHtml, 'request'), email }),
  );
  expect(sent.status).toBe(200);

  // 3. The emailed link opens a confirmation page; its form (with the page's cookie) signs the
  // browser in and returns to the screen.
  const mail = await smtp.waitFor((m) => m.to.includes(email), 15_000);
  const link = new URL(mail.links.find((l) => l.includes('/account/signin/web'))!);
  expect(link.origin).toBe(publicUrl);
  const confirmPage = await fetch(`${gatewayUrl}${link.pathname}${link.search}`, { redirect: 'manual' });
  expect(confirmPage.status).toBe(200);
  const confirmHtml = await confirmPage.text();
  const confirmCookie = /murmur_signin=[^;]+/.exec(confirmPage.headers.get('set-cookie') ?? '')![0];
  const landed = await fetch(`${gatewayUrl}/account/signin/web`, {
    ...form({
      token: hidden(confirmHtml, 'token'),
      csrf: hidden(confirmHtml, 'csrf'),
      return_to: hidden(confirmHtml, 'return_to'),
    }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: confirmCookie },
    redirect: 'manual',
  });
  expect(landed.status).toBe(302);
  const cookie = /murmur_session=[^;]+/.exec(landed.headers.get('set-cookie') ?? '')![0];
  const back = landed.headers.get('location')!;
  expect(back.startsWith('/indieauth/auth?')).toBe(true);

  // 4. Consent: approve with the form's request id and CSRF token.
  const consent = await fetch(`${gatewayUrl}${back}`, { headers: { cookie } });
  const consentHtml = await consent.text();
  expect(consentHtml).toContain(`@${username}`);
  const approved = await fetch(`${gatewayUrl}/indieauth/approve`, {
    ...form({ request: hidden(consentHtml, 'request'), csrf: hidden(consentHtml, 'csrf') }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    redirect: 'manual',
  });
  expect(approved.status).toBe(302);
  const callback = new URL(approved.headers.get('location')!);
  expect(callback.searchParams.get('state')).toBe(state);
  expect(callback.searchParams.get('iss')).toBe(meta.issuer);
  const code = callback.searchParams.get('code')!;

  // 5. Redemption with the PKCE verifier.
  const redeemed = await fetch(
    `${gatewayUrl}/indieauth/token`,
    form({
      grant_type: 'authorization_code',
      code,
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  );
  expect(redeemed.status).toBe(200);
  expect(redeemed.headers.get('cache-control')).toBe('no-store');
  const grant = (await redeemed.json()) as { access_token: string; me: string };
  expect(grant).toMatchObject({ token_type: 'Bearer', scope: 'create', me: `${publicUrl}/${username}/` });
  const bearer = { authorization: `Bearer ${grant.access_token}` };

  // 6. Verification and use as a Bearer token of another endpoint (through the platform's auth hook).
  const verified = await fetch(`${gatewayUrl}/indieauth/token`, { headers: bearer });
  expect(verified.status).toBe(200);
  expect(await verified.json()).toMatchObject({ me: grant.me, client_id: CLIENT_ID, scope: 'create' });
  expect((await fetch(`${gatewayUrl}/account/me`, { headers: bearer })).status).toBe(200);
  expect((await fetch(`${gatewayUrl}/account/me`, { headers: bearer })).status).toBe(200);

  // 7. Revocation: the cached token is refused at once.
  const revoked = await fetch(
    `${gatewayUrl}/indieauth/token`,
    form({ action: 'revoke', token: grant.access_token }),
  );
  expect(revoked.status).toBe(200);
  const deadline = Date.now() + 2_000;
  let status = (await fetch(`${gatewayUrl}/account/me`, { headers: bearer })).status;
  while (status !== 401 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await fetch(`${gatewayUrl}/account/me`, { headers: bearer })).status;
  }
  expect(status).toBe(401);
  expect((await fetch(`${gatewayUrl}/indieauth/token`, { headers: bearer })).status).toBe(401);
}
