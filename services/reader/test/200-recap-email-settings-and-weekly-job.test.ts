// Recap email settings (GET/POST dayofweek) and the weekly job: on the chosen day from 08:00 UTC the
// user's unread and starred entries of the last 7 days are mailed through identity (mail.send).
import { describe, expect, test } from '@jest/globals';
import { enqueueRecapEmails } from '../src/jobs/scheduler.js';
import type { FeedServer } from './feed-server.js';
import { useReaderWithFeedServer, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let ann: TestUser;

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const setDay = (user: TestUser, body: unknown, headers?: Record<string, string>) =>
  h.req(user, 'POST', '/feeds/recap/email', body as object, headers);

/** Moves the test clock to the next 09:00 UTC (a time the weekly job may run). */
function toNineUtc(): Date {
  const now = new Date(h.clock.now());
  const target = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 9));
  if (target.getTime() < now.getTime()) target.setUTCDate(target.getUTCDate() + 1);
  h.clock.advance(target.getTime() - now.getTime());
  return target;
}

useReaderWithFeedServer((started) => {
  ({ h, feeds, ann } = started);
});

describe('settings', () => {
  test('off ("") by default', async () => {
    expect((await h.get(ann, '/feeds/recap/email')).json()).toEqual({ dayofweek: '' });
  });

  test('"Friday" is stored and returned as "friday" (JSON, form or query)', async () => {
    expect((await setDay(ann, { dayofweek: 'Friday' })).json()).toEqual({ dayofweek: 'friday' });
    expect((await h.get(ann, '/feeds/recap/email')).json()).toEqual({ dayofweek: 'friday' });
    const form = await setDay(ann, 'dayofweek=MONDAY', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.json()).toEqual({ dayofweek: 'monday' });
    expect((await h.req(ann, 'POST', '/feeds/recap/email?dayofweek=sunday')).json()).toEqual({
      dayofweek: 'sunday',
    });
  });

  test('"" turns it off', async () => {
    expect((await setDay(ann, { dayofweek: '' })).json()).toEqual({ dayofweek: '' });
    expect((await h.get(ann, '/feeds/recap/email')).json()).toEqual({ dayofweek: '' });
  });

  test.each([
    ['funday', { dayofweek: 'funday' }],
    ['missing', {}],
    ['a number', { dayofweek: 3 }],
  ])('%s → 400 {"error"} and no change', async (_what, body) => {
    await setDay(ann, { dayofweek: 'tuesday' });
    const res = await setDay(ann, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^dayofweek: /);
    expect((await h.get(ann, '/feeds/recap/email')).json()).toEqual({ dayofweek: 'tuesday' });
  });
});

describe('the weekly email', () => {
  test('on the day: one mail with the unread and starred entries; nothing again that day', async () => {
    await h.subscribe(ann, feeds.url('/rss2.xml'));
    const nine = toNineUtc();
    await setDay(ann, { dayofweek: DAYS[nine.getUTCDay()] });
    expect(await enqueueRecapEmails(h.ctx)).toBe(1);
    await h.idle();
    expect(h.identity.mails).toHaveLength(1);
    const mail = h.identity.mails[0]!;
    expect(mail.to).toBe('ann@example.com');
    expect(mail.subject).toBe('Your weekly reading recap');
    expect(mail.html).toContain('class="reading-recap"');
    expect(mail.html).toContain('Release notes');
    expect(mail.text).toContain('Release notes');
    expect(await enqueueRecapEmails(h.ctx)).toBe(0);
  });

  test('other days, before 08:00 UTC, or with nothing to recap: no mail', async () => {
    const bob = h.identity.addUser('bob');
    const nine = toNineUtc();
    await setDay(bob, { dayofweek: DAYS[(nine.getUTCDay() + 1) % 7] });
    const sent = h.identity.mails.length;
    expect(await enqueueRecapEmails(h.ctx)).toBe(0);
    await setDay(bob, { dayofweek: DAYS[nine.getUTCDay()] });
    h.clock.advance(-2 * 60 * 60_000);
    expect(await enqueueRecapEmails(h.ctx)).toBe(0);
    h.clock.advance(2 * 60 * 60_000);
    expect(await enqueueRecapEmails(h.ctx)).toBe(1);
    await h.idle();
    expect(h.identity.mails.length).toBe(sent);
  });

  test('a failing mailer: the job is retried, the day is not marked as sent', async () => {
    const carl = h.identity.addUser('carl');
    await h.subscribe(carl, feeds.url('/rss2.xml'));
    h.clock.advance(24 * 60 * 60_000);
    const day = DAYS[new Date(h.clock.now()).getUTCDay()];
    await setDay(carl, { dayofweek: day });
    h.identity.mailFails = true;
    await enqueueRecapEmails(h.ctx);
    await new Promise((r) => setTimeout(r, 300));
    const settings = await h.store.collection('recap_settings').findOne({ _id: carl.id });
    expect(settings!.lastSentOn).toBeNull();
    const job = await h.store
      .collection('jobs')
      .findOne({ type: 'reader.recap-email.send', 'payload.userId': carl.id });
    expect(job!.lastError).toMatch(/Internal error|mailer/);
    h.identity.mailFails = false;
  });
});
