import { expect, test } from '@jest/globals';
import { readRawEmail } from '../../src/mail/index.js';
import { LINEAR_RATIO_BOUND, linearity, runOf } from '../../../../test-e2e/support/fuzz.js';

const raw = [
  'From: Murmur <murmur@localhost>',
  'To: ada@example.com',
  'Subject: Sign in to Murmur',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Open this link to sign in:',
  'http://localhost:8080/account/signin/web?token=3DXWJF9G972m7fYIkU992AiuMXvufRZbon5l=',
  'm282ex23g&amp;x=3D1',
  '',
].join('\r\n');

test('quoted-printable links come back whole, with = and & restored', () => {
  const mail = readRawEmail(raw);
  expect(mail.subject).toBe('Sign in to Murmur');
  expect(mail.to).toEqual(['ada@example.com']);
  expect(mail.links).toEqual([
    'http://localhost:8080/account/signin/web?token=XWJF9G972m7fYIkU992AiuMXvufRZbon5lm282ex23g&x=1',
  ]);
});

test('a message without links has none', () => {
  expect(readRawEmail('Subject: hi\r\n\r\nno links here').links).toEqual([]);
});

test('several recipients, in angle brackets or not, are all read', () => {
  const mail = readRawEmail('To: "Ada" <ada@example.com>, bob@example.org,@x, y@\r\nSubject: s\r\n\r\n');
  expect(mail.to).toEqual(['ada@example.com', 'bob@example.org']);
});

test('time stays linear on one long To token without "@"', async () => {
  const result = await linearity(
    (text: string) => readRawEmail(text),
    runOf('a', 'To: ', '\r\nSubject: s\r\n\r\nbody'),
    { maxN: 1 << 16 },
  );
  expect(result.ratio).toBeLessThan(LINEAR_RATIO_BOUND);
});
