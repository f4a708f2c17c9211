import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { startHarness, type Harness } from './harness.js';
import { startWebPushStandIn, type WebPushStandIn } from './web-push-stand-in.js';

let h: Harness;
let web: WebPushStandIn;
beforeAll(async () => {
  web = await startWebPushStandIn();
  h = await startHarness({
    webPushCa: web.ca,
    env: { PUSH_WEB_ENDPOINT_HOSTS: web.host, PUSH_VAPID_SUBJECT: 'mailto:ops@murmur.example' },
  });
});
afterAll(async () => {
  await h.stop();
  await web.close();
});

const register = (token: string, body: unknown) =>
  h.request('POST', '/users/push/web/register', { token, body });

test('GET /users/push/web/key gives the VAPID public key (65-byte P-256 point), the same every time', async () => {
  const first = await h.request('GET', '/users/push/web/key');
  expect(first.statusCode).toBe(200);
  const key = first.json().public_key as string;
  expect(Buffer.from(key, 'base64url')).toHaveLength(65);
  expect((await h.request('GET', '/users/push/web/key')).json().public_key).toBe(key);
});

test('a registered browser gets the notification encrypted for it, VAPID-signed, with a TTL', async () => {
  const ada = h.user('ada');
  const browser = web.browser('ada-1');
  const res = await register(ada.token, browser.subscription);
  expect(res.statusCode).toBe(201);
  expect(res.json()).toEqual({
    status: 'success',
    message: 'Subscription registered.',
    subscription: { endpoint: browser.subscription.endpoint, created_at: '2030-01-01T08:30:00+00:00' },
  });
  expect((await register(ada.token, browser.subscription)).statusCode).toBe(200);

  await h.followEvent(h.user('bob'), ada);
  await eventually(async () => (web.messages.length >= 1 ? true : undefined));
  const [message] = web.messages;
  expect(message!.headers).toEqual({ 'content-encoding': 'aes128gcm', ttl: '86400' });
  const publicKey = (await h.request('GET', '/users/push/web/key')).json().public_key;
  expect(message!.vapid).toMatchObject({ aud: web.origin, sub: 'mailto:ops@murmur.example', publicKey });
  expect(message!.payload).toEqual({
    kind: 'follow',
    alert: '@bob started following you',
    from_user: { username: 'bob' },
  });
});

test('a push service answering 410 gets the subscription deleted; 429 is retried', async () => {
  const cy = h.user('cy');
  const gone = web.browser('cy-gone');
  const busy = web.browser('cy-busy');
  await register(cy.token, gone.subscription);
  await register(cy.token, busy.subscription);
  web.messages.length = 0;
  web.answers['cy-gone'] = [410];
  web.answers['cy-busy'] = [429];
  await h.followEvent(h.user('dee'), cy);
  await eventually(async () => (web.messages.length >= 2 ? true : undefined));
  await h.settle();
  const log = async () =>
    ((await h.admin('GET', `/admin/push/log?user_id=${cy.id}`)).json().deliveries as any[])
      .map((d) => `${d.channel} ${d.outcome} ${d.status}`)
      .sort();
  expect(await log()).toEqual(['web removed 410', 'web retry 429']);
  // The gone subscription is no more: unregistering it is a 404.
  const unregister = await h.request('POST', '/users/push/web/unregister', {
    token: cy.token,
    body: { endpoint: gone.subscription.endpoint },
  });
  expect(unregister.statusCode).toBe(404);
  expect(unregister.json()).toEqual({ status: 'error', message: 'Subscription not registered.' });
  h.clock.advance(120_000);
  await eventually(async () => (web.messages.length >= 3 ? true : undefined));
  await h.settle();
  expect(await log()).toEqual(['web delivered 201', 'web removed 410', 'web retry 429']);
});

test('endpoints off the allowed push services, non-https, and bad keys → 400; nothing stored', async () => {
  const ada = h.user('ada');
  const good = web.browser('x').subscription;
  for (const [body, param] of [
    [{ ...good, endpoint: 'https://127.0.0.2/push/x' }, 'endpoint'],
    [{ ...good, endpoint: `http://${web.host}/push/x` }, 'endpoint'],
    [{ ...good, keys: { ...good.keys, p256dh: 'AAAA' } }, 'keys.p256dh'],
    [{ ...good, keys: { ...good.keys, auth: 'AAAA' } }, 'keys.auth'],
    [{ endpoint: good.endpoint }, 'keys'],
  ] as const) {
    const res = await register(ada.token, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(param);
  }
  expect((await h.request('POST', '/users/push/web/register', { body: good })).statusCode).toBe(401);
});

test('unregister → 200, again 404; another user registering the endpoint takes it over', async () => {
  const ada = h.user('ada');
  const eve = h.user('eve');
  const browser = web.browser('shared');
  await register(ada.token, browser.subscription);
  expect((await register(eve.token, browser.subscription)).statusCode).toBe(201);
  const adaTry = await h.request('POST', '/users/push/web/unregister', {
    token: ada.token,
    body: { endpoint: browser.subscription.endpoint },
  });
  expect(adaTry.statusCode).toBe(404);
  const eveOff = await h.request('POST', '/users/push/web/unregister', {
    token: eve.token,
    body: { endpoint: browser.subscription.endpoint },
  });
  expect(eveOff.statusCode).toBe(200);
  expect(eveOff.json()).toEqual({ status: 'success', message: 'Subscription unregistered.' });
});
