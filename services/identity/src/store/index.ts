// Identity's own collections, their indexes and the named queries the domain needs (nothing else
// touches the collections). Secrets (app tokens, sign-in tokens, session ids, IndieAuth requests,
// codes and access tokens) are only ever stored as SHA-256 hex, and looked up by that hash.
import { DuplicateKeyError, nextId, type Collection, type Store } from '@murmur/store';
import type {
  DefaultSiteCopy,
  UserDoc,
  AppTokenDoc,
  SigninPurpose,
  SigninTokenDoc,
  AppDoc,
  WebSessionDoc,
  AuthRequestDoc,
  AuthCodeDoc,
  IndieAuthTokenDoc,
  SecretDoc,
  ProfileFields,
} from './documents.js';

export type * from './documents.js';

export class IdentityStore {
  private readonly users: Collection<UserDoc>;
  private readonly appTokens: Collection<AppTokenDoc>;
  private readonly signinTokens: Collection<SigninTokenDoc>;
  private readonly apps: Collection<AppDoc>;
  private readonly webSessions: Collection<WebSessionDoc>;
  private readonly authRequests: Collection<AuthRequestDoc>;
  private readonly authCodes: Collection<AuthCodeDoc>;
  private readonly indieAuthTokens: Collection<IndieAuthTokenDoc>;
  private readonly secrets: Collection<SecretDoc>;

  constructor(private readonly store: Store) {
    this.users = store.collection<UserDoc>('users');
    this.appTokens = store.collection<AppTokenDoc>('app_tokens');
    this.signinTokens = store.collection<SigninTokenDoc>('signin_tokens');
    this.apps = store.collection<AppDoc>('apps');
    this.webSessions = store.collection<WebSessionDoc>('web_sessions');
    this.authRequests = store.collection<AuthRequestDoc>('indieauth_requests');
    this.authCodes = store.collection<AuthCodeDoc>('indieauth_codes');
    this.indieAuthTokens = store.collection<IndieAuthTokenDoc>('indieauth_tokens');
    this.secrets = store.collection<SecretDoc>('secrets');
  }

  async createIndexes(): Promise<void> {
    await this.users.createIndex({ usernameKey: 1 }, { unique: true });
    await this.users.createIndex({ emailKey: 1 }, { unique: true, sparse: true });
    await this.users.createIndex({ appleSub: 1 }, { unique: true, sparse: true });
    await this.appTokens.createIndex({ hash: 1 }, { unique: true });
    await this.appTokens.createIndex({ userId: 1 });
    // Used and expired sign-in tokens are worthless; a day of slack keeps them around for support.
    await this.signinTokens.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 86_400 });
    await this.apps.createIndex({ appName: 1 }, { unique: true });
    await this.webSessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await this.authRequests.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    // Kept a day past expiry: a replayed code must still be recognised to revoke its token.
    await this.authCodes.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 86_400 });
    await this.indieAuthTokens.createIndex({ userId: 1 });
    await this.indieAuthTokens.createIndex({ codeHash: 1 });
  }

  // users

  nextUserId(): Promise<number> {
    return nextId(this.store, 'users');
  }

  insertUser(user: UserDoc): Promise<UserDoc> {
    return this.users.insertOne(user);
  }

  /** Events may arrive twice or out of order; writing the same copy again changes nothing. */
  async setDefaultSite(userId: number, site: DefaultSiteCopy): Promise<void> {
    await this.users.updateOne({ _id: userId }, { $set: { defaultSite: site } });
  }

  userById(id: number): Promise<UserDoc | null> {
    return this.users.findOne({ _id: id });
  }

  userByUsername(username: string): Promise<UserDoc | null> {
    return this.users.findOne({ usernameKey: username.toLowerCase() });
  }

  userByEmail(email: string): Promise<UserDoc | null> {
    return this.users.findOne({ emailKey: email.toLowerCase() });
  }

  userByAppleSub(sub: string): Promise<UserDoc | null> {
    return this.users.findOne({ appleSub: sub });
  }

  listUsers(limit: number, offset: number): Promise<UserDoc[]> {
    return this.users.find({}, { sort: { _id: 1 }, skip: offset, limit });
  }

  updateProfile(id: number, fields: ProfileFields, now: Date): Promise<UserDoc | null> {
    return this.users.findOneAndUpdate({ _id: id }, { $set: { ...fields, updatedAt: now } });
  }

  // app tokens

  nextAppTokenId(): Promise<number> {
    return nextId(this.store, 'app_tokens');
  }

  insertAppToken(token: AppTokenDoc): Promise<AppTokenDoc> {
    return this.appTokens.insertOne(token);
  }

  appTokenByHash(hash: string): Promise<AppTokenDoc | null> {
    return this.appTokens.findOne({ hash });
  }

  appTokenById(id: number): Promise<AppTokenDoc | null> {
    return this.appTokens.findOne({ _id: id });
  }

  appToken(filter: { _id: number } | { hash: string }): Promise<AppTokenDoc | null> {
    return this.appTokens.findOne(filter);
  }

  appTokensOfUser(userId: number): Promise<AppTokenDoc[]> {
    return this.appTokens.find({ userId }, { sort: { _id: 1 } });
  }

  /** The token as it was just revoked, or null when it was unknown or already revoked. */
  revokeAppToken(filter: { _id: number } | { hash: string }, now: Date): Promise<AppTokenDoc | null> {
    return this.appTokens.findOneAndUpdate({ ...filter, revokedAt: null }, { $set: { revokedAt: now } });
  }

  /** Records use, writing at most once per `minIntervalMs` per token. */
  async touchAppToken(id: number, now: Date, minIntervalMs: number): Promise<void> {
    const before = new Date(now.getTime() - minIntervalMs);
    await this.appTokens.updateOne(
      { _id: id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: before } }] },
      { $set: { lastUsedAt: now } },
    );
  }

  // sign-in tokens

  insertSigninToken(token: SigninTokenDoc): Promise<SigninTokenDoc> {
    return this.signinTokens.insertOne(token);
  }

  /** The unused, unexpired sign-in token, left as it is. */
  liveSigninToken(hash: string, purpose: SigninPurpose, now: Date): Promise<SigninTokenDoc | null> {
    return this.signinTokens.findOne({ _id: hash, purpose, usedAt: null, expiresAt: { $gt: now } });
  }

  /**
   * Marks an unused, unexpired sign-in token as used and returns it; null when there is no such token.
   * Atomic, so two simultaneous exchanges of one token cannot both succeed.
   */
  consumeSigninToken(hash: string, purpose: SigninPurpose, now: Date): Promise<SigninTokenDoc | null> {
    return this.signinTokens.findOneAndUpdate(
      { _id: hash, purpose, usedAt: null, expiresAt: { $gt: now } },
      { $set: { usedAt: now } },
    );
  }

  // registered apps

  nextAppId(): Promise<number> {
    return nextId(this.store, 'apps');
  }

  insertApp(app: AppDoc): Promise<AppDoc> {
    return this.apps.insertOne(app);
  }

  appByName(appName: string): Promise<AppDoc | null> {
    return this.apps.findOne({ appName });
  }

  appByRedirectUrl(redirectUrl: string): Promise<AppDoc | null> {
    return this.apps.findOne({ redirectUrl });
  }

  listApps(): Promise<AppDoc[]> {
    return this.apps.find({}, { sort: { _id: 1 } });
  }

  async deleteApp(id: number): Promise<boolean> {
    const { deletedCount } = await this.apps.deleteOne({ _id: id });
    return deletedCount > 0;
  }

  // web sessions

  insertWebSession(session: WebSessionDoc): Promise<WebSessionDoc> {
    return this.webSessions.insertOne(session);
  }

  liveWebSession(hash: string, now: Date): Promise<WebSessionDoc | null> {
    return this.webSessions.findOne({ _id: hash, expiresAt: { $gt: now } });
  }

  deleteWebSession(hash: string): Promise<unknown> {
    return this.webSessions.deleteOne({ _id: hash });
  }

  // IndieAuth: pending requests, codes, access tokens

  insertAuthRequest(request: AuthRequestDoc): Promise<AuthRequestDoc> {
    return this.authRequests.insertOne(request);
  }

  liveAuthRequest(hash: string, now: Date): Promise<AuthRequestDoc | null> {
    return this.authRequests.findOne({ _id: hash, expiresAt: { $gt: now } });
  }

  /** Removes a request once decided, so one screen yields one code. True when it was still there. */
  async takeAuthRequest(hash: string): Promise<boolean> {
    return (await this.authRequests.deleteOne({ _id: hash })).deletedCount > 0;
  }

  insertAuthCode(code: AuthCodeDoc): Promise<AuthCodeDoc> {
    return this.authCodes.insertOne(code);
  }

  /** Marks an unused code as used (atomically: one redemption wins); null when it is unknown or used. */
  claimAuthCode(hash: string, now: Date): Promise<AuthCodeDoc | null> {
    return this.authCodes.findOneAndUpdate({ _id: hash, usedAt: null }, { $set: { usedAt: now } });
  }

  /** Records a second use; null when there is no such code at all. */
  markAuthCodeReplayed(hash: string, now: Date): Promise<AuthCodeDoc | null> {
    return this.authCodes.findOneAndUpdate({ _id: hash }, { $set: { replayedAt: now } });
  }

  /** Remembers the token issued from a code; returns the code as it is now. */
  recordCodeToken(hash: string, tokenHash: string): Promise<AuthCodeDoc | null> {
    return this.authCodes.findOneAndUpdate({ _id: hash }, { $set: { tokenHash } });
  }

  insertIndieAuthToken(token: IndieAuthTokenDoc): Promise<IndieAuthTokenDoc> {
    return this.indieAuthTokens.insertOne(token);
  }

  indieAuthTokenByHash(hash: string): Promise<IndieAuthTokenDoc | null> {
    return this.indieAuthTokens.findOne({ _id: hash });
  }

  /** The token as it was just revoked, or null when it was unknown or already revoked. */
  revokeIndieAuthToken(hash: string, now: Date): Promise<IndieAuthTokenDoc | null> {
    return this.indieAuthTokens.findOneAndUpdate(
      { _id: hash, revokedAt: null },
      { $set: { revokedAt: now } },
    );
  }

  indieAuthTokensOfCode(codeHash: string): Promise<IndieAuthTokenDoc[]> {
    return this.indieAuthTokens.find({ codeHash });
  }

  // secrets

  /** The named secret; the first replica to ask creates it, every other one reads that same value. */
  async sharedSecret(name: string, make: () => string, now: Date): Promise<string> {
    const existing = await this.secrets.findOne({ _id: name });
    if (existing) return existing.value;
    try {
      return (await this.secrets.insertOne({ _id: name, value: make(), createdAt: now })).value;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const winner = await this.secrets.findOne({ _id: name });
      if (!winner) throw err;
      return winner.value;
    }
  }
}
