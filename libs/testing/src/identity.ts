// Identity's bus answers from two tables, so a service's tests need not boot identity: token checks
// (identity.token.verify), logins (identity.credentials.verify), user look-ups (identity.users.get),
// and revocations announced the way identity announces them (evt.identity.token.revoked).
import { randomBytes } from 'node:crypto';
import { identity, SCOPES, type PublicUser } from '@murmur/contracts';
import type { Bus, Subscription } from '@murmur/bus';
import { sha256Hex } from '@murmur/core';

export interface FakeUser {
  id: number;
  username: string;
  /** Default `<username>@example.com`. */
  email?: string;
  name?: string;
}

export interface FakeToken {
  token: string;
  userId: number;
  /** Default `app` (every scope, usable as a Basic/XML-RPC password). */
  kind?: 'app' | 'indieauth';
  /** IndieAuth scopes; app tokens always carry every scope. */
  scopes?: string[];
  /** Default '' (app tokens), e.g. `https://app.example/` for IndieAuth. */
  clientId?: string;
}

export interface FakeIdentityOptions {
  users?: FakeUser[];
  tokens?: FakeToken[];
}

export interface FakeIdentity {
  readonly users: FakeUser[];
  readonly tokens: FakeToken[];
  /** Questions asked so far, by subject (`identity.token.verify` …), to assert caching. */
  readonly asked: Record<string, number>;
  /** Adds a user; `id` defaults to the next free one. */
  addUser(user: Omit<FakeUser, 'id'> & { id?: number }): FakeUser;
  /** Adds a token (random when not given) for a user. */
  addToken(token: Omit<FakeToken, 'token'> & { token?: string }): FakeToken;
  /** Forgets the token and publishes evt.identity.token.revoked, as identity does. */
  revoke(token: string): Promise<void>;
  stop(): Promise<void>;
}

function publicUser(user: FakeUser): PublicUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email ?? `${user.username}@example.com`,
    name: user.name ?? user.username,
    fullName: user.name ?? '',
    avatar: '',
    bio: '',
    links: [],
    createdAt: new Date(0).toISOString(),
  };
}

export async function startFakeIdentity(bus: Bus, options: FakeIdentityOptions = {}): Promise<FakeIdentity> {
  const users: FakeUser[] = [...(options.users ?? [])];
  const tokens: FakeToken[] = [...(options.tokens ?? [])];
  const asked: Record<string, number> = {};
  const count = (subject: string) => (asked[subject] = (asked[subject] ?? 0) + 1);
  const userById = (id: number) => users.find((u) => u.id === id);

  const subscriptions: Subscription[] = await Promise.all([
    bus.handle(identity.tokenVerify, async ({ token }) => {
      count(identity.tokenVerify.subject);
      const grant = tokens.find((t) => t.token === token);
      const user = grant && userById(grant.userId);
      if (!grant || !user) return { active: false as const };
      const kind = grant.kind ?? 'app';
      return {
        active: true as const,
        userId: user.id,
        username: user.username,
        kind,
        scopes: kind === 'app' ? [...SCOPES] : (grant.scopes ?? []),
        clientId: grant.clientId ?? '',
        tokenHash: sha256Hex(token),
      };
    }),
    bus.handle(identity.credentialsVerify, async ({ login, token }) => {
      count(identity.credentialsVerify.subject);
      const name = login.trim().toLowerCase();
      const user = users.find((u) =>
        name.includes('@')
          ? (u.email ?? `${u.username}@example.com`).toLowerCase() === name
          : u.username.toLowerCase() === name,
      );
      const grant = tokens.find((t) => t.token === token && (t.kind ?? 'app') === 'app');
      if (!user || !grant || grant.userId !== user.id) return { ok: false as const };
      return { ok: true as const, userId: user.id, username: user.username };
    }),
    bus.handle(identity.usersGet, async (query) => {
      count(identity.usersGet.subject);
      const user =
        'id' in query
          ? userById(query.id)
          : users.find((u) => u.username.toLowerCase() === query.username.toLowerCase());
      return { user: user ? publicUser(user) : null };
    }),
  ]);

  return {
    users,
    tokens,
    asked,
    addUser(user) {
      const id = user.id ?? users.reduce((max, u) => Math.max(max, u.id), 0) + 1;
      const added = { ...user, id };
      users.push(added);
      return added;
    },
    addToken(token) {
      const added = { ...token, token: token.token ?? randomBytes(32).toString('base64url') };
      tokens.push(added);
      return added;
    },
    async revoke(token) {
      const index = tokens.findIndex((t) => t.token === token);
      if (index < 0) throw new Error('revoke: unknown token');
      const [grant] = tokens.splice(index, 1);
      await bus.publish(identity.tokenRevoked, { tokenHash: sha256Hex(token), userId: grant!.userId });
    },
    async stop() {
      await Promise.all(subscriptions.map((s) => s.unsubscribe()));
    },
  };
}
