// deploy/base/mongodb-users.js runs in mongosh as MongoDB's root user. There is no MongoDB here, so the script
// runs in a VM context whose `db` records the user commands mongosh would send: each service gets a user with
// readWrite on its own database only, an existing user is updated (so a rerun rotates passwords), and a missing
// password stops the run before any user is touched.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from '@jest/globals';
import { SERVICES, databaseOf, mongoPasswordVar } from '../src/access.js';
import { readRepoFile } from './support/manifests.js';

const script = readRepoFile('deploy/base/mongodb-users.js');

class Exit extends Error {
  constructor(readonly code: number) {
    super(`quit(${code})`);
  }
}

function run(env: Record<string, string>, existing: string[] = []) {
  const calls: { op: string; database: string; user: string; pwd?: string; roles?: unknown }[] = [];
  const printed: string[] = [];
  const sibling = (database: string) => ({
    getUser: (user: string) => (existing.includes(user) ? { user } : null),
    createUser: (u: { user: string; pwd: string; roles: unknown }) =>
      calls.push({ op: 'create', database, user: u.user, pwd: u.pwd, roles: u.roles }),
    updateUser: (user: string, u: { pwd: string; roles: unknown }) =>
      calls.push({ op: 'update', database, user, pwd: u.pwd, roles: u.roles }),
  });
  let exit = 0;
  try {
    runInNewContext(script, {
      db: { getSiblingDB: sibling },
      print: (line: string) => printed.push(line),
      quit: (code: number) => {
        throw new Exit(code);
      },
      process: { env },
    });
  } catch (err) {
    if (!(err instanceof Exit)) throw err;
    exit = err.code;
  }
  return { calls, printed, exit };
}

const passwords = Object.fromEntries(SERVICES.map((s) => [mongoPasswordVar(s), `pw-${s}`]));

describe('mongodb-users.js', () => {
  it('creates one user per service in admin, with readWrite on its own database only', () => {
    const { calls, exit } = run(passwords);
    expect(exit).toBe(0);
    expect(calls).toEqual(
      SERVICES.map((s) => ({
        op: 'create',
        database: 'admin',
        user: s,
        pwd: `pw-${s}`,
        roles: [{ role: 'readWrite', db: databaseOf(s) }],
      })),
    );
  });

  it('updates the password and roles of users that exist, so a rerun rotates passwords', () => {
    const { calls } = run(passwords, ['reader']);
    expect(calls.find((c) => c.user === 'reader')).toEqual({
      op: 'update',
      database: 'admin',
      user: 'reader',
      pwd: 'pw-reader',
      roles: [{ role: 'readWrite', db: 'murmur_reader' }],
    });
    expect(calls.filter((c) => c.op === 'create')).toHaveLength(SERVICES.length - 1);
  });

  it('stops before touching any user when a password is missing, naming it', () => {
    const { MONGO_FEEDS_PASSWORD: _dropped, ...rest } = passwords;
    const { calls, printed, exit } = run(rest);
    expect(exit).toBe(1);
    expect(calls).toEqual([]);
    expect(printed.join('\n')).toContain('MONGO_FEEDS_PASSWORD');
  });
});
