import { expect, test } from '@jest/globals';
import { APNS_MAX_PAYLOAD, apnsPayload } from '../src/domain/apns-payload.js';
import { ALERT_MAX, notificationsOfPost } from '../src/domain/notifications.js';

const post = (text: string) => ({
  id: 99,
  userId: 2,
  siteId: 2,
  url: 'https://example.test/99',
  title: '',
  contentHtml: '',
  contentText: text,
  publishedAt: '2030-01-01T08:30:00+00:00',
  photos: [],
  mentions: [{ userId: 1, username: 'ada' }],
  categories: [],
});

test('a 10 KB post: aps.alert, post_id (string) and from_user.username, ≤ 4096 bytes, text cut with …', () => {
  const [n] = notificationsOfPost(post('Hello @ada ' + 'é🙂"\\ '.repeat(2000)), 'bob');
  const json = apnsPayload(n!);
  expect(Buffer.byteLength(json)).toBeLessThanOrEqual(APNS_MAX_PAYLOAD);
  const payload = JSON.parse(json);
  expect(payload.post_id).toBe('99');
  expect(payload.from_user).toEqual({ username: 'bob' });
  expect(payload.aps.sound).toBe('default');
  expect(payload.aps.alert.startsWith('@bob mentioned you: Hello @ada é🙂')).toBe(true);
  expect(payload.aps.alert.endsWith('…')).toBe(true);
  expect(Array.from(payload.aps.alert as string).length).toBeLessThanOrEqual(ALERT_MAX);
});

test('an alert too long for 4096 bytes on its own is cut to fit, whole characters only', () => {
  const json = apnsPayload({ alert: '"😀'.repeat(3000), postId: '1', fromUsername: 'bob' });
  expect(Buffer.byteLength(json)).toBeLessThanOrEqual(APNS_MAX_PAYLOAD);
  expect(Buffer.byteLength(json)).toBeGreaterThan(APNS_MAX_PAYLOAD - 8);
  const alert = JSON.parse(json).aps.alert as string;
  expect(alert.endsWith('…')).toBe(true);
  expect(alert).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
});
