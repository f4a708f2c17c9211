// The operator commands `murmur push apps add|list|remove` and `murmur push log` against the push
// service's admin API.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { adminClient } from '../../../cli/src/admin-client.js';
import { runAdminCommand, UsageError } from '../../../cli/src/commands.js';
import { ADMIN_TOKEN, devHex, KEY_ID, startHarness, TEAM_ID, type Harness } from './harness.js';

let h: Harness;
const dir = mkdtempSync(join(tmpdir(), 'murmur-push-cli-'));
const lines: string[] = [];
beforeAll(async () => {
  h = await startHarness({ app: false });
});
afterAll(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (group: string, action: string, flags: Record<string, string | boolean> = {}) => {
  lines.length = 0;
  await runAdminCommand(adminClient(h.url, ADMIN_TOKEN), group, action, flags, { out: (l) => lines.push(l) });
  return lines.join('\n');
};

test('push apps add / list / remove; the key file is sent once and never printed', async () => {
  const keyFile = join(dir, 'AuthKey.p8');
  writeFileSync(keyFile, h.key.pem, { mode: 0o600 });
  const added = await run('push', 'apps', {
    user: 'add',
    name: 'Murmur',
    'team-id': TEAM_ID,
    'key-id': KEY_ID,
    'key-file': keyFile,
    topic: 'org.murmur.ios',
    env: 'production,sandbox',
    default: true,
  });
  expect(added).toBe(
    `stored push app Murmur\tteam ${TEAM_ID}\tkey ${KEY_ID}\torg.murmur.ios\tproduction+sandbox\tdefault`,
  );
  await run('push', 'apps', {
    user: 'add',
    name: 'Beta',
    'team-id': TEAM_ID,
    'key-id': KEY_ID,
    'key-file': keyFile,
    topic: 'org.murmur.beta',
    env: 'sandbox',
  });
  const list = await run('push', 'apps', { user: 'list' });
  expect(list.split('\n')).toEqual([
    `Beta\tteam ${TEAM_ID}\tkey ${KEY_ID}\torg.murmur.beta\tsandbox`,
    `Murmur\tteam ${TEAM_ID}\tkey ${KEY_ID}\torg.murmur.ios\tproduction+sandbox\tdefault`,
  ]);
  expect(await run('push', 'apps', { user: 'list', json: true })).not.toContain('PRIVATE KEY');
  expect(await run('push', 'apps', { user: 'remove', name: 'Beta' })).toBe('removed push app Beta');
  await expect(run('push', 'apps', { user: 'remove', name: 'Beta' })).rejects.toThrow(
    '404: No such push app.',
  );
});

test('push apps add with a missing flag or an unreadable key file is a usage error', async () => {
  await expect(run('push', 'apps', { user: 'add', name: 'X' })).rejects.toThrow(UsageError);
  await expect(
    run('push', 'apps', {
      user: 'add',
      name: 'X',
      'team-id': TEAM_ID,
      'key-id': KEY_ID,
      'key-file': join(dir, 'missing.p8'),
      topic: 'org.x',
    }),
  ).rejects.toThrow(/cannot read --key-file/);
  await expect(run('push', 'apps', { user: 'frobnicate' })).rejects.toThrow(UsageError);
});

test('push log [--user ID] lists the attempts, newest first', async () => {
  const ada = h.user('ada');
  await h.register(ada, devHex(1));
  const e = await h.followEvent(h.user('bob'), ada);
  await eventually(async () => (h.apns.requests.length >= 1 ? true : undefined));
  await h.settle();
  const out = await run('push', 'log', { user: String(ada.id) });
  expect(out).toBe(
    `2030-01-01T08:30:00+00:00\tuser ${ada.id}\t${devHex(1).slice(0, 8)}…\tMurmur/production\tdelivered\t200\tattempt 1\tevent ${e}`,
  );
  expect(await run('push', 'log', { user: '999' })).toBe('(no deliveries)');
});
