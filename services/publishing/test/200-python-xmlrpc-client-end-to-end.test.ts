// Python's standard xmlrpc.client drives the whole method set through the gateway: blogs, posts (create,
// read back, edit, list, delete), categories, a media upload fetched from its URL, pages, and a scheduled
// post that turns published after its time.
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

const run = promisify(execFile);
const script = join(fileURLToPath(new URL('.', import.meta.url)), 'clients', 'metaweblog_client.py');

const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython) process.stderr.write('python xmlrpc.client test — SKIPPED: python3 not found\n');

(hasPython ? describe : describe.skip)(
  hasPython ? 'python3 xmlrpc.client' : 'python3 xmlrpc.client — SKIPPED: python3 not found',
  () => {
    let h: Harness;
    let ada: Account;

    beforeAll(async () => {
      h = await startHarness();
      ada = await h.createUser('ada', { name: 'Ada' });
    });
    afterAll(() => h.stop());

    it('runs a whole editing session', async () => {
      const { stdout } = await run('python3', [script, `${h.url}/xmlrpc`, 'ada', ada.token], {
        timeout: 30_000,
      });
      const out = JSON.parse(stdout);
      const site = await h.siteOf(ada.id);
      expect(out.blogs).toEqual([
        {
          blogid: String(site._id),
          blogName: 'Ada',
          url: `${h.url}/sites/ada/`,
          xmlrpc: `${h.url}/xmlrpc`,
          isAdmin: true,
        },
      ]);
      expect(out.methods).toContain('metaWeblog.newPost');
      expect(out.post).toMatchObject({
        postid: String(out.post_id),
        id: out.post_id,
        title: 'From Python',
        description: 'Written in <em>Python</em>.',
        categories: ['Snakes'],
        post_status: 'published',
      });
      expect(out.post.permalink).toMatch(/\/sites\/ada\/\d{4}\/\d{2}\/\d{2}\/from-python\.html$/);
      expect(out.post_date_type).toBe('datetime');
      expect(out.edited).toBe('Edited in Python.');
      expect(out.recent).toContain(String(out.post_id));
      expect(out.categories).toEqual(['Snakes']);
      expect(out.media).toMatchObject({ same_bytes: true, type: 'image/png', nosniff: 'nosniff' });
      expect(out.media.url).toMatch(/-py-dot\.png$/);
      expect(out.pages).toEqual([[expect.any(Number), 'Python Page, edited', true]]);
      expect(out.page_deleted).toBe(true);
      expect(out.scheduled_before).toBe('scheduled');
      expect(out.scheduled_after).toBe('published');
      expect(out.deleted).toBe(true);
      expect(out.after_delete).toEqual([404, 'No such post.']);
      expect(out.wrong_token).toBe(403);
    }, 60_000);
  },
);
