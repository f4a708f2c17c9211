// The operator CLI against a real single process: the commands an operator types, through the gateway.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  adminClient,
  runAdminCommand,
  startSingleProcess,
  UsageError,
  type SingleProcess,
} from '@murmur/cli';
import { freePort } from '@murmur/testing';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cliEntry = join(repoRoot, 'cli/dist/main.js');

describe('murmur CLI against a single process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-cli-'));
  let murmur: SingleProcess;
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l) };
  const run = async (
    group: string,
    action: string,
    flags: Record<string, string | boolean> = {},
    words: string[] = [],
  ) => {
    lines.length = 0;
    await runAdminCommand(
      adminClient(`http://127.0.0.1:${murmur.port}`, murmur.adminToken),
      group,
      action,
      flags,
      io,
      words,
    );
    return lines.join('\n');
  };

  beforeAll(async () => {
    murmur = await startSingleProcess({
      PORT: String(await freePort()),
      GATEWAY_INTERNAL_PORT: '0', // any free port: tests run side by side
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      BUS_URL: `memory:cli-${process.pid}`,
      LOG_LEVEL: 'silent',
    });
  });

  afterAll(async () => {
    await murmur?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('first start writes a private admin token into DATA_DIR', () => {
    const file = join(dataDir, 'admin-token');
    expect(readFileSync(file, 'utf8').trim()).toBe(murmur.adminToken);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('users create / list, tokens issue / list / revoke, apps register / list / remove', async () => {
    expect(await run('users', 'create', { username: 'grace', email: 'Grace@Example.com' })).toMatch(
      /^created user \d+ @grace <Grace@Example.com>\napp token \(shown once\): [A-Za-z0-9_-]{43}$/,
    );
    expect(await run('users', 'list')).toMatch(/\t@grace\tGrace@Example.com/);

    const issued = await run('tokens', 'issue', { user: 'grace@example.com', label: 'laptop', json: true });
    const { id, token } = JSON.parse(issued) as { id: number; token: string };
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await run('tokens', 'list', { user: 'grace' })).toMatch(new RegExp(`^${id}\\tlaptop\\t`, 'm'));

    const me = () =>
      fetch(`http://127.0.0.1:${murmur.port}/account/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);
    expect(await run('tokens', 'revoke', { id: String(id) })).toBe('revoked');
    expect((await me()).status).toBe(401);
    expect(await run('tokens', 'list', { user: 'grace' })).toMatch(
      new RegExp(`^${id}\\tlaptop\\t.*\\trevoked `, 'm'),
    );

    expect(await run('apps', 'register', { name: 'Reader', 'redirect-url': 'reader://signin' })).toMatch(
      /^registered app (\d+) Reader → reader:\/\/signin$/,
    );
    const appId = /^(\d+)\tReader/m.exec(await run('apps', 'list'))![1]!;
    expect(await run('apps', 'remove', { id: appId })).toBe(`removed app ${appId}`);
    expect(await run('apps', 'list')).toBe('(no apps)');
  });

  test('users links sets, shows and clears a user’s profile links (rel=me on their page)', async () => {
    const links = ['https://social.example/@grace', 'https://grace.example/'];
    expect(await run('users', 'links', { user: 'grace' }, [...links, links[0]!])).toBe(
      `@grace has 2 profile links:\n${links.join('\n')}`,
    );
    expect(await run('users', 'links', { user: 'grace' })).toBe(
      `@grace has 2 profile links:\n${links.join('\n')}`,
    );
    const page = await (await fetch(`http://127.0.0.1:${murmur.port}/grace/`)).text();
    for (const link of links) expect(page).toContain(`<link rel="me" href="${link}" />`);
    expect(JSON.parse(await run('users', 'links', { user: 'grace', json: true })).links).toEqual(links);

    await expect(run('users', 'links', { user: 'grace' }, ['ftp://files.example/'])).rejects.toThrow(
      /^400: links: "ftp:\/\/files\.example\/" is not an absolute http\(s\) URL/,
    );
    expect(await run('users', 'links', { user: 'grace', clear: true })).toBe('@grace has no profile links');
    await expect(run('users', 'links', { user: 'grace', clear: true }, links)).rejects.toThrow(UsageError);
    await expect(run('users', 'links', {}, links)).rejects.toThrow(/--user is required/);
  });

  test('a taken username is reported with the API message, and nothing is created', async () => {
    await expect(run('users', 'create', { username: 'grace', email: 'other@example.com' })).rejects.toThrow(
      /^409: /,
    );
    expect((await run('users', 'list')).split('\n')).toHaveLength(1);
  });

  test('missing flags and unknown commands are usage errors', async () => {
    await expect(run('users', 'create', { username: 'x' })).rejects.toThrow(UsageError);
    await expect(run('users', 'explode')).rejects.toThrow('unknown command "users explode"');
  });

  test('the built binary prints help and lists users with the stored admin token', async () => {
    if (!existsSync(cliEntry))
      throw new Error('cli/dist/main.js is not built: run `npm run build` (npm test builds first)');
    const exec = promisify(execFile);
    const help = await exec(process.execPath, [cliEntry, '--help']);
    expect(help.stdout).toMatch(/murmur users create --username U --email E/);
    const env = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      MURMUR_URL: `http://127.0.0.1:${murmur.port}`,
    };
    const list = await exec(process.execPath, [cliEntry, 'users', 'list'], { env });
    expect(list.stdout).toMatch(/@grace/);
    await expect(exec(process.execPath, [cliEntry, 'users', 'create'], { env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--username is required/),
    });
    // Options as operators type them: `--name value` as well as `--name=value`; switches take no value.
    const created = await exec(
      process.execPath,
      [cliEntry, 'users', 'create', '--username', 'spaced', '--email=spaced@example.test', '--json'],
      { env },
    );
    expect(JSON.parse(created.stdout)).toMatchObject({ username: 'spaced', email: 'spaced@example.test' });
    // A word a command does not take is refused, not read as something else (a user, a file).
    await expect(exec(process.execPath, [cliEntry, 'users', 'list', 'ada'], { env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/unexpected argument "ada" after `murmur users list`/),
    });
    await expect(
      exec(process.execPath, [cliEntry, 'webmentions', 'block', 'spam.example', 'extra'], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/unexpected argument "extra" after `murmur webmentions block`/),
    });
    const blocks = await exec(process.execPath, [cliEntry, 'webmentions', 'blocks', '--json'], { env });
    expect(blocks.stdout).not.toMatch(/spam\.example/);
  }, 120_000); // five runs of the built binary, each a new Node process

  test('the built binary reads every word after the user of `users links` as a link', async () => {
    const exec = promisify(execFile);
    const env = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      MURMUR_URL: `http://127.0.0.1:${murmur.port}`,
    };
    const linked = await exec(
      process.execPath,
      [cliEntry, 'users', 'links', 'grace', 'https://a.example/', 'https://b.example/@g', '--json'],
      { env },
    );
    expect(JSON.parse(linked.stdout).links).toEqual(['https://a.example/', 'https://b.example/@g']);
  });

  test('blogroll add / remove put a user’s site in /blogroll.org.json and take it out', async () => {
    await run('users', 'create', { username: 'lin', email: 'lin@example.test', name: 'Lin' });
    const blogroll = async () =>
      (await (await fetch(`http://127.0.0.1:${murmur.port}/blogroll.org.json`)).json()) as {
        items: { title: string; _service: { username: string; categories: string[] } }[];
      };
    // lin's default site is announced by publishing; wait until feeds has it.
    for (let i = 0; i < 100; i++) {
      const out = await run('blogroll', 'add', { user: 'lin', categories: 'Poetry,travel' });
      expect(out).toBe('lin is in the blogroll (poetry, travel)');
      if ((await blogroll()).items.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await blogroll()).items).toEqual([
      expect.objectContaining({
        title: 'Lin',
        _service: { username: 'lin', categories: ['poetry', 'travel'] },
      }),
    ]);
    expect(await run('blogroll', 'remove', { user: 'lin' })).toBe('lin left the blogroll');
    expect((await blogroll()).items).toEqual([]);
    await expect(run('blogroll', 'add', {})).rejects.toBeInstanceOf(UsageError);
  });
});
