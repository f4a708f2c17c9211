// A person signs in to an IndieAuth client in a real browser (headless Chromium), single-process
// mode: the client sends them to the authorization screen, they ask for an emailed link, follow it,
// approve, and land back on the client, which redeemed the code with its PKCE verifier and shows `me`.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startSingleProcess, type SingleProcess } from '@murmur/cli';
import { freePort, startSmtpCapture, type SmtpCapture } from '@murmur/testing';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describeWithBrowser, launchChromium } from '../support/browser.js';
import { CLIENT_NAME, clientHost, startClientApp, type ClientApp } from '../support/client-app.js';
import { repoRoot } from '../support/processes.js';

const OUTPUT_DIR = join(repoRoot, 'test-output');

describeWithBrowser('IndieAuth in a real browser (single process)', () => {
  let smtp: SmtpCapture;
  let murmur: SingleProcess;
  let client: ClientApp;
  let browser: Browser;
  let gatewayUrl = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-browser-'));

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    const { host, address } = await clientHost();
    murmur = await startSingleProcess({
      PATH: process.env.PATH,
      PORT: String(port),
      GATEWAY_INTERNAL_PORT: '0', // any free port: tests run side by side
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUS_URL: `memory:e2e-browser-${process.pid}`,
      MAIL_URL: smtp.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // The browser follows emailed links and redirects built from it: it must be where Murmur answers.
      PUBLIC_URL: gatewayUrl,
      // The client app runs on this machine; the operator allow-list lets identity read its page.
      OUTBOUND_ALLOW_HOSTS: address,
    });
    client = await startClientApp({ host, address, gatewayUrl, issuer: `${gatewayUrl}/` });
    const created = await fetch(`${gatewayUrl}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${murmur.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', email: 'ada@example.test', name: 'Ada Lovelace' }),
    });
    expect(created.status).toBe(201);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await client?.stop();
    await murmur?.stop();
    await smtp?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('200-indieauth-in-browser: email link, approve, the client shows me', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    try {
      // 1. The client sends the person to the authorization screen: no session yet, so an email form.
      await page.goto(client.authorizationUrl({ scope: 'create', inkwell: '1' }));
      const appTitle = client.named ? CLIENT_NAME : new URL(client.clientId).host;
      await expect(page.locator('h1').textContent()).resolves.toBe(appTitle);
      await page.fill('input[name=email]', 'ada@example.test');
      await page.click('button:has-text("Email me a sign-in link")');
      await page.waitForSelector('text=Check your email');

      // 2. The emailed link, opened in the same browser, asks to confirm; its button signs in and
      // returns to the screen.
      const mail = await smtp.waitFor((m) => m.to.includes('ada@example.test'), 15_000);
      const link = mail.links.find((l) => l.startsWith(`${gatewayUrl}/account/signin/web?`));
      expect(link).toBeDefined();
      await page.goto(link!);
      await page.click('button:has-text("Sign in")');
      await page.waitForSelector('button:has-text("Approve")');
      expect(new URL(page.url()).pathname).toBe('/indieauth/auth');

      // 3. What the person is asked: the app, its full client id, the scope, reader access, where they go.
      const text = await page.locator('main').innerText();
      expect(text).toContain(appTitle);
      expect(text).toContain(client.clientId);
      expect(text).toContain('@ada');
      expect(text).toContain('create');
      expect(text).toContain('Reader access');
      expect(text).toContain(`sent to ${new URL(client.redirectUri).host}`);
      if (client.named) {
        await expect(
          page
            .locator('img.logo')
            .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
        ).resolves.toBe(64);
      } else {
        console.log(
          'client_id is the loopback literal (this machine name does not resolve): no name or logo',
        );
      }
      mkdirSync(OUTPUT_DIR, { recursive: true });
      const screenshot = join(OUTPUT_DIR, 'indieauth-authorization-screen.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      console.log(`authorization screen screenshot: ${screenshot}`);

      // 4. Approve: back on the client, which redeemed the code (PKCE) and shows who signed in.
      await page.click('button:has-text("Approve")');
      await page.waitForSelector('#me');
      expect(page.url().startsWith(client.redirectUri)).toBe(true);
      // In the single process publishing made ada's default site, so `me` is its address (docs/api/identity.md).
      await expect(page.locator('#me').textContent()).resolves.toBe(`${gatewayUrl}/sites/ada/`);
      await expect(page.locator('#scope').textContent()).resolves.toBe('create read');
      await expect(page.locator('#token').textContent()).resolves.toBe('yes');
      if (client.named) expect(client.pageRequests()).toBe(1);
      else expect(client.pageRequests()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
