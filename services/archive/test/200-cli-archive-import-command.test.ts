// `murmur archive import SITE FILE`: the operator command uploads the file with the admin token
// (type from the extension, or --type), waits for the job and prints the outcome; a failed import is
// an error naming the reason.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { adminClient } from '../../../cli/src/admin-client.js';
import { runAdminCommand } from '../../../cli/src/commands.js';
import { blogArchiveZip, dailyPosts, jsonFeed, wordpressExport } from './fixtures.js';
import { ADMIN_TOKEN, startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
const dir = mkdtempSync(join(tmpdir(), 'archive-cli-'));

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h?.stop());

async function run(flags: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  await runAdminCommand(adminClient(h.url, ADMIN_TOKEN), 'archive', 'import', flags, {
    out: (line) => lines.push(line),
  });
  return lines;
}

it('imports a JSON Feed, a ZIP and a WXR file and prints the counts', async () => {
  writeFileSync(join(dir, 'feed.json'), jsonFeed(dailyPosts(3)));
  writeFileSync(join(dir, 'blog.zip'), blogArchiveZip());
  writeFileSync(join(dir, 'wordpress.xml'), wordpressExport());
  expect(await run({ user: String(ada.siteId), file: join(dir, 'feed.json') })).toEqual([
    expect.stringMatching(/^import imp-\d+ complete: 3 posts imported, 0 skipped$/),
  ]);
  expect(await run({ user: String(ada.siteId), file: join(dir, 'blog.zip') })).toEqual([
    expect.stringMatching(/complete: 2 posts imported, 0 skipped$/),
  ]);
  expect(await run({ user: String(ada.siteId), file: join(dir, 'wordpress.xml') })).toEqual([
    expect.stringMatching(/complete: 2 posts imported, 4 skipped$/),
  ]);
  expect((await h.feed(`/imported/archive/${ada.siteId}/recent.json`)).items).toHaveLength(7);
});

it('reports a failed import with its reason, and refuses unknown file types without --type', async () => {
  writeFileSync(join(dir, 'bad.json'), '{"nope": 1}');
  await expect(run({ user: String(ada.siteId), file: join(dir, 'bad.json') })).rejects.toThrow(
    /failed: .*not a JSON Feed/,
  );
  writeFileSync(join(dir, 'export.dat'), jsonFeed([]));
  await expect(run({ user: String(ada.siteId), file: join(dir, 'export.dat') })).rejects.toThrow(/--type/);
  const typed = await run({
    user: String(ada.siteId),
    file: join(dir, 'export.dat'),
    type: 'application/json',
  });
  expect(typed[0]).toMatch(/complete: 0 posts imported/);
  await expect(run({ user: 'abc', file: join(dir, 'bad.json') })).rejects.toThrow(/SITE must be a site id/);
});
