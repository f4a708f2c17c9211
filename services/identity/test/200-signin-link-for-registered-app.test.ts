// Sign-in links for registered apps: redirect_url + token=, the "any registered app" rule, the mobile template.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startIdentity, tokenFromMail, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
  await h.createUser('ada', 'ada@example.com');
  await h.registerApp('Reader', 'app://signin');
  await h.registerApp('Web Reader', 'https://reader.example/signin?from=mail');
});
afterAll(() => h.stop());

describe('sign-in links of registered apps', () => {
  test('app_name + redirect_url: the link is redirect_url with ?token= appended', async () => {
    const mail = await h.signinMail('ada@example.com', { app_name: 'Reader', redirect_url: 'app://signin' });
    const token = tokenFromMail(mail);
    expect(mail.text).toContain(`app://signin?token=${token}`);
  });

  test('a redirect_url that already has a query gets &token=', async () => {
    const mail = await h.signinMail('ada@example.com', { app_name: 'Web Reader' });
    const token = tokenFromMail(mail);
    expect(mail.links).toContain(`https://reader.example/signin?from=mail&token=${token}`);
  });

  test('redirect_url without app_name is accepted when some registered app has it', async () => {
    const mail = await h.signinMail('ada@example.com', { redirect_url: 'app://signin', is_mobile: '1' });
    expect(mail.text).toContain(`app://signin?token=${tokenFromMail(mail)}`);
  });

  test('is_mobile=1 selects the mobile template with a button that opens the app link', async () => {
    const mobile = await h.signinMail('ada@example.com', { app_name: 'Reader', is_mobile: 1 });
    const desktop = await h.signinMail('ada@example.com', { app_name: 'Reader' });
    expect(mobile.text).toContain('Open the app and sign in');
    expect(mobile.text).toContain(`href="app://signin?token=${tokenFromMail(mobile)}"`);
    expect(desktop.text).not.toContain('Open the app and sign in');
  });

  test('the token from an app link becomes an app token at /account/verify', async () => {
    const mail = await h.signinMail('ada@example.com', { app_name: 'Reader' });
    const res = await h.verify(tokenFromMail(mail));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: 'ada' });
  });
});
