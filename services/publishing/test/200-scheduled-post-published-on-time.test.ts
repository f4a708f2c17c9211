// A future date schedules the post: it is "scheduled" (with its future permalink) and invisible on the web
// until its time, then the scheduler publishes it with exactly one published event. The job is stored, so
// a restart of the service between scheduling and the due time does not lose it. Time is a TestClock that
// the tests move, so nothing waits for real hours to pass.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';
import { eventually, TestClock } from '@murmur/testing';
import { recordPostEvents, settle, type PostEventLog } from './events.js';

describe('scheduled posts', () => {
  let dir: string;
  let h: Harness;
  let ada: Account;
  let log: PostEventLog;
  const clock = new TestClock();
  const HOUR = 60 * 60_000;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'murmur-publishing-'));
    h = await startHarness({ storeUrl: `file:${dir}`, clock });
    ada = await h.createUser('ada');
    log = await recordPostEvents(h.bus);
  });
  afterAll(async () => {
    await log.stop();
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const status = async (id: number) => (await h.call('metaWeblog.getPost', [id, 'ada', ada.token])).value;

  it('publishes a future post when its time comes, once', async () => {
    const due = new Date(clock.nowMs() + HOUR);
    const res = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'Soon', description: 'x', dateCreated: due },
    ]);
    const id = res.value as number;
    const scheduled = await status(id);
    expect(scheduled.post_status).toBe('scheduled');
    expect(scheduled.permalink).toMatch(/\/sites\/ada\/\d{4}\/\d{2}\/\d{2}\/soon\.html$/);
    const path = new URL(scheduled.permalink).pathname;
    expect((await h.get(path)).statusCode).toBe(404);
    expect(log.of(id)).toEqual([]);

    clock.advance(HOUR - 60_000);
    await settle(500);
    expect((await status(id)).post_status).toBe('scheduled');
    clock.advance(60_000);
    await eventually(async () => ((await status(id)).post_status === 'published' ? true : undefined), 8000);
    expect((await h.get(path)).statusCode).toBe(200);
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published']);
    expect(log.of(id)[0]!.envelope.data.url).toBe(scheduled.permalink);
  });

  it('still publishes after the service restarts before the due time', async () => {
    const due = new Date(clock.nowMs() + 2 * HOUR);
    const res = await h.call('service.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'Across a restart', description: 'y', date_created_gmt: due },
    ]);
    const id = res.value as number;
    expect((await status(id)).post_status).toBe('scheduled');
    await h.restartPublishing();
    clock.advance(2 * HOUR);
    await eventually(async () => ((await status(id)).post_status === 'published' ? true : undefined), 10_000);
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published']);
  });

  it('a rescheduled post goes out at its new time only', async () => {
    const res = await h.call('metaWeblog.newPost', [
      '0',
      'ada',
      ada.token,
      { title: 'Moved', description: 'z', dateCreated: new Date(clock.nowMs() + HOUR) },
    ]);
    const id = res.value as number;
    const later = new Date(clock.nowMs() + 3 * HOUR);
    const edit = await h.call('metaWeblog.editPost', [id, 'ada', ada.token, { dateCreated: later }]);
    expect(edit.value).toBe(true);
    clock.advance(2 * HOUR);
    await settle(1000);
    expect((await status(id)).post_status).toBe('scheduled');
    expect(log.of(id)).toEqual([]);

    clock.advance(HOUR);
    await eventually(async () => ((await status(id)).post_status === 'published' ? true : undefined), 8000);
    await settle();
    expect(log.of(id).map((e) => e.verb)).toEqual(['published']);
  });
});
