// The operator commands: each is a thin mapping from arguments to one admin API call.
import { openAsBlob, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { AdminApiError, type AdminClient } from './admin-client.js';

/** The media type of an archive import, by file extension. */
const ARCHIVE_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.xml': 'text/xml',
  '.wxr': 'text/xml',
};

export interface CommandIo {
  out(line: string): void;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Flags = Record<string, string | boolean | undefined>;

function need(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v.length === 0) throw new UsageError(`--${name} is required`);
  return v;
}

function optional(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

interface UserRow {
  id: number;
  username: string;
  email: string;
  name?: string;
}

async function resolveUserId(api: AdminClient, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const { users } = await api.call<{ users: UserRow[] }>('GET', `/admin/users?limit=1000`);
  const wanted = ref.toLowerCase();
  const user = users.find((u) => u.username.toLowerCase() === wanted || u.email.toLowerCase() === wanted);
  if (!user) throw new UsageError(`no user "${ref}"`);
  return user.id;
}

export const USAGE = `murmur — Murmur server and operator CLI

  murmur start                                  run the gateway and every service in this process
  murmur users create --username U --email E [--name N]
  murmur users list
  murmur users plan --user U|ID --plan P [--plans a,b]
  murmur users links USER [URL ...] [--clear]   show, set (in this order) or clear USER's profile
                                                links, shown as rel="me" on their pages
  murmur tokens issue --user U|ID [--label L]   prints a new app token (shown once)
  murmur tokens list --user U|ID
  murmur tokens revoke --id ID | --token T
  murmur apps register --name APP --redirect-url URL
  murmur apps list
  murmur apps remove --id ID
  murmur blogroll add USER [--categories a,b]   list USER's sites in /blogroll.org.json
  murmur blogroll remove USER
  murmur archive import SITE FILE [--type T]    import a JSON Feed, blog-archive ZIP or WordPress WXR
                                                file into site SITE's archive and wait for the result
  murmur webmentions block HOST                 refuse webmentions from HOST for every site
  murmur webmentions unblock HOST
  murmur webmentions blocks                     list the blocked source hosts
  murmur push apps add --name NAME --team-id T --key-id K --key-file KEY.p8 --topic BUNDLE_ID
                      [--env production,sandbox] [--default]   APNs credentials of an app
  murmur push apps list                         (keys are never shown)
  murmur push apps remove --name NAME
  murmur push log [--user U|ID] [--limit N]     delivery attempts of the last 30 days
  murmur outbox [--last N] [--link]             emails written to DATA_DIR/outbox (no MAIL_URL set)

Admin commands talk to MURMUR_URL (default: PUBLIC_URL, else http://localhost:$PORT) with
MURMUR_ADMIN_TOKEN (default: the token in $DATA_DIR/admin-token written by \`murmur start\`).
Add --json to print the API's JSON.`;

/** The lines an operator reads about a user's profile links. */
function describeLinks(user: { username: string; links: string[] }): string {
  const count = user.links.length;
  if (count === 0) return `@${user.username} has no profile links`;
  return [`@${user.username} has ${count} profile link${count === 1 ? '' : 's'}:`, ...user.links].join('\n');
}

/**
 * Runs one operator command. `words` are the words after the command's subject (`murmur users links
 * ada URL URL`: the URLs); only commands that take a list read them.
 */
export async function runAdminCommand(
  api: AdminClient,
  group: string,
  action: string | undefined,
  flags: Flags,
  io: CommandIo,
  words: readonly string[] = [],
): Promise<void> {
  const json = flags.json === true;
  const print = (value: unknown, human: () => string) =>
    io.out(json ? JSON.stringify(value, null, 2) : human());

  switch (`${group} ${action ?? ''}`.trim()) {
    case 'users create': {
      const name = optional(flags, 'name');
      const res = await api.call<UserRow & { token: string }>('POST', '/admin/users', {
        username: need(flags, 'username'),
        email: need(flags, 'email'),
        ...(name ? { name } : {}),
      });
      return print(
        res,
        () => `created user ${res.id} @${res.username} <${res.email}>\napp token (shown once): ${res.token}`,
      );
    }
    case 'users list': {
      const res = await api.call<{ users: UserRow[] }>('GET', '/admin/users?limit=1000');
      return print(
        res,
        () => res.users.map((u) => `${u.id}\t@${u.username}\t${u.email}`).join('\n') || '(no users)',
      );
    }
    case 'users plan': {
      const id = await resolveUserId(api, need(flags, 'user'));
      const plans = optional(flags, 'plans');
      const res = await api.call('PATCH', `/admin/users/${id}`, {
        plan: need(flags, 'plan'),
        ...(plans ? { plans: plans.split(',').map((p) => p.trim()) } : {}),
      });
      return print(res, () => `updated user ${id}`);
    }
    case 'users links': {
      const id = await resolveUserId(api, need(flags, 'user'));
      type UserLinks = { username: string; links: string[] };
      if (flags.clear === true && words.length > 0) {
        throw new UsageError('give either URLs or --clear, not both');
      }
      // The API checks each URL and says which one it refuses; the list replaces the stored one.
      const res =
        flags.clear === true || words.length > 0
          ? await api.call<UserLinks>('PATCH', `/admin/users/${id}`, { links: flags.clear ? [] : words })
          : await api.call<UserLinks>('GET', `/admin/users/${id}`);
      return print(res, () => describeLinks(res));
    }
    case 'tokens issue': {
      const id = await resolveUserId(api, need(flags, 'user'));
      const label = optional(flags, 'label');
      const res = await api.call<{ id: number; token: string; label: string }>(
        'POST',
        `/admin/users/${id}/tokens`,
        {
          ...(label ? { label } : {}),
        },
      );
      return print(res, () => `token ${res.id} (${res.label}) for user ${id}, shown once:\n${res.token}`);
    }
    case 'tokens list': {
      const id = await resolveUserId(api, need(flags, 'user'));
      const res = await api.call<{
        tokens: Array<{ id: number; label: string; created_at: string; revoked_at: string | null }>;
      }>('GET', `/admin/users/${id}/tokens`);
      return print(
        res,
        () =>
          res.tokens
            .map(
              (t) => `${t.id}\t${t.label}\t${t.created_at}${t.revoked_at ? `\trevoked ${t.revoked_at}` : ''}`,
            )
            .join('\n') || '(no tokens)',
      );
    }
    case 'tokens revoke': {
      const id = optional(flags, 'id');
      const token = optional(flags, 'token');
      if (id) {
        if (!/^\d+$/.test(id)) throw new UsageError('--id must be a token id (a number)');
        await api.call('DELETE', `/admin/tokens/${id}`);
      } else if (token) {
        await api.call('POST', '/admin/tokens/revoke', { token });
      } else {
        throw new UsageError('--id or --token is required');
      }
      return print({}, () => 'revoked');
    }
    case 'apps register': {
      const res = await api.call<{ id: number; app_name: string; redirect_url: string }>(
        'POST',
        '/admin/apps',
        {
          app_name: need(flags, 'name'),
          redirect_url: need(flags, 'redirect-url'),
        },
      );
      return print(res, () => `registered app ${res.id} ${res.app_name} → ${res.redirect_url}`);
    }
    case 'apps list': {
      const res = await api.call<{ apps: Array<{ id: number; app_name: string; redirect_url: string }> }>(
        'GET',
        '/admin/apps',
      );
      return print(
        res,
        () => res.apps.map((a) => `${a.id}\t${a.app_name}\t${a.redirect_url}`).join('\n') || '(no apps)',
      );
    }
    case 'apps remove': {
      const id = need(flags, 'id');
      if (!/^\d+$/.test(id)) throw new UsageError('--id must be an app id (a number)');
      await api.call('DELETE', `/admin/apps/${id}`);
      return print({}, () => `removed app ${id}`);
    }
    case 'blogroll add': {
      const user = need(flags, 'user');
      const categories = optional(flags, 'categories');
      const res = await api.call<{ username: string; categories: string[] }>(
        'PUT',
        `/admin/blogroll/${encodeURIComponent(user)}`,
        categories ? { categories: categories.split(',') } : {},
      );
      return print(
        res,
        () => `${res.username} is in the blogroll (${res.categories.join(', ') || 'no categories'})`,
      );
    }
    case 'blogroll remove': {
      const user = need(flags, 'user');
      await api.call('DELETE', `/admin/blogroll/${encodeURIComponent(user)}`);
      return print({}, () => `${user} left the blogroll`);
    }
    case 'archive import': {
      const site = need(flags, 'user');
      if (!/^[1-9]\d{0,14}$/.test(site)) throw new UsageError('SITE must be a site id (a number)');
      const file = need(flags, 'file');
      const type = optional(flags, 'type') ?? ARCHIVE_TYPES[extname(file).toLowerCase()];
      if (!type)
        throw new UsageError('give --type (application/json, application/zip or text/xml) for this file');
      const started = await api.upload<{ id: string }>(
        `/imported/archive/${site}/import`,
        await openAsBlob(file),
        type,
      );
      type ImportState = {
        id: string;
        status: string;
        imported: number;
        skipped: number;
        error: string | null;
      };
      let state: ImportState;
      for (;;) {
        state = await api.call<ImportState>('GET', `/imported/archive/${site}/import/${started.id}`);
        if (state.status === 'complete' || state.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      if (state.status === 'failed') throw new AdminApiError(0, `import ${state.id} failed: ${state.error}`);
      return print(
        state,
        () => `import ${state.id} complete: ${state.imported} posts imported, ${state.skipped} skipped`,
      );
    }
    case 'webmentions block':
    case 'webmentions unblock': {
      // The third word arrives as --user (see main.ts); --host says the same.
      const host = optional(flags, 'host') ?? optional(flags, 'user');
      if (!host) throw new UsageError(`a HOST is required: murmur webmentions ${action} HOST`);
      const path = `/admin/webmention/blocks/${encodeURIComponent(host)}`;
      if (action === 'block') {
        const res = await api.call<{ host: string }>('PUT', path);
        return print(res, () => `webmentions from ${res.host} are refused`);
      }
      await api.call('DELETE', path);
      return print({}, () => `webmentions from ${host.toLowerCase()} are accepted again`);
    }
    case 'webmentions blocks': {
      const res = await api.call<{ blocks: { host: string; created_at: string }[] }>(
        'GET',
        '/admin/webmention/blocks',
      );
      return print(
        res,
        () => res.blocks.map((b) => `${b.host}\t${b.created_at}`).join('\n') || 'no blocked hosts',
      );
    }
    case 'push apps': {
      // `murmur push apps add|list|remove`: the third word arrives as `user` (see main.ts).
      const sub = typeof flags.user === 'string' ? flags.user : undefined;
      return runPushAppsCommand(api, sub, flags, print);
    }
    case 'push log': {
      const user = optional(flags, 'user');
      const limit = optional(flags, 'limit');
      if (limit !== undefined && !/^\d+$/.test(limit)) throw new UsageError('--limit must be a number');
      const query = new URLSearchParams();
      if (user) query.set('user_id', String(await resolveUserId(api, user)));
      if (limit) query.set('limit', limit);
      const res = await api.call<{ deliveries: PushDelivery[] }>('GET', `/admin/push/log?${query}`);
      return print(
        res,
        () =>
          res.deliveries
            .map(
              (d) =>
                `${d.at}\tuser ${d.user_id}\t${d.device}\t${d.app_name}/${d.push_env}\t${d.outcome}\t` +
                `${d.status || '-'}${d.reason ? ` ${d.reason}` : ''}\tattempt ${d.attempt}\tevent ${d.event_id}`,
            )
            .join('\n') || '(no deliveries)',
      );
    }
    default:
      throw new UsageError(`unknown command "${[group, action].filter(Boolean).join(' ')}"`);
  }
}

interface PushApp {
  name: string;
  team_id: string;
  key_id: string;
  topic: string;
  environments: string[];
  default: boolean;
}

interface PushDelivery {
  at: string;
  event_id: string;
  user_id: number;
  device: string;
  app_name: string;
  push_env: string;
  attempt: number;
  status: number;
  reason: string;
  outcome: string;
}

function describePushApp(a: PushApp): string {
  return `${a.name}\tteam ${a.team_id}\tkey ${a.key_id}\t${a.topic}\t${a.environments.join('+')}${a.default ? '\tdefault' : ''}`;
}

async function runPushAppsCommand(
  api: AdminClient,
  sub: string | undefined,
  flags: Flags,
  print: (value: unknown, human: () => string) => void,
): Promise<void> {
  switch (sub) {
    case 'add': {
      const name = need(flags, 'name');
      const keyFile = need(flags, 'key-file');
      let key: string;
      try {
        key = readFileSync(keyFile, 'utf8');
      } catch (err) {
        throw new UsageError(
          `cannot read --key-file ${keyFile}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
        );
      }
      const env = optional(flags, 'env');
      // The key goes to the push service's store only; it is not printed, and the API never returns it.
      const res = await api.call<PushApp>('PUT', `/admin/push/apps/${encodeURIComponent(name)}`, {
        team_id: need(flags, 'team-id'),
        key_id: need(flags, 'key-id'),
        key,
        topic: need(flags, 'topic'),
        ...(env ? { environments: env } : {}),
        ...(flags.default === true ? { default: true } : {}),
      });
      return print(res, () => `stored push app ${describePushApp(res)}`);
    }
    case 'list': {
      const res = await api.call<{ apps: PushApp[] }>('GET', '/admin/push/apps');
      return print(res, () => res.apps.map(describePushApp).join('\n') || '(no push apps)');
    }
    case 'remove': {
      const name = need(flags, 'name');
      await api.call('DELETE', `/admin/push/apps/${encodeURIComponent(name)}`);
      return print({}, () => `removed push app ${name}`);
    }
    default:
      throw new UsageError('usage: murmur push apps add|list|remove');
  }
}
