// The documents of identity's collections. Secrets (app tokens, sign-in tokens, session ids,
// IndieAuth requests, codes and access tokens) appear only as SHA-256 hex, the key they are found by.

export interface DefaultSiteCopy {
  siteId: number;
  host: string;
  /** Absolute, ending in `/`: the user's IndieAuth `me`. */
  url: string;
}

export interface UserDoc {
  _id: number;
  username: string;
  /** Lowercased username: the unique key. */
  usernameKey: string;
  /** Absent for Apple accounts created without an email. */
  email?: string;
  /** Lowercased email: unique, sparse. */
  emailKey?: string;
  name: string;
  fullName: string;
  bio: string;
  avatar: string;
  /**
   * The user's other profiles, shown as rel="me" (domain/profile-links.ts): checked absolute http(s)
   * URLs in the user's order. Absent on accounts that never set any.
   */
  links?: string[];
  plan: string;
  plans: string[];
  /** Apple `sub` once linked: unique, sparse. */
  appleSub?: string;
  /** Identity's copy of the user's default site, fed by publishing's site events. */
  defaultSite?: DefaultSiteCopy;
  createdAt: Date;
  updatedAt: Date;
  [key: string]: unknown;
}

export interface AppTokenDoc {
  _id: number;
  hash: string;
  userId: number;
  label: string;
  kind: 'app';
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  [key: string]: unknown;
}

export type SigninPurpose = 'signin' | 'signup';

export interface SigninTokenDoc {
  /** SHA-256 of the token. */
  _id: string;
  purpose: SigninPurpose;
  /** Set for `signin`; a `signup` token belongs to nobody yet. */
  userId: number | null;
  appName: string | null;
  /** The Apple `sub` a sign-up token was issued for. */
  appleSub: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  [key: string]: unknown;
}

export interface AppDoc {
  _id: number;
  appName: string;
  redirectUrl: string;
  createdAt: Date;
  [key: string]: unknown;
}

export interface WebSessionDoc {
  /** SHA-256 of the session id carried in the cookie. */
  _id: string;
  userId: number;
  createdAt: Date;
  expiresAt: Date;
  [key: string]: unknown;
}

/** A validated authorization request, waiting for the person's decision (10 min). */
export interface AuthRequestDoc {
  /** SHA-256 of the opaque `request` id carried by the screen's forms. */
  _id: string;
  clientId: string;
  redirectUri: string;
  /** Returned unchanged; null when the client sent none. */
  state: string | null;
  responseType: 'code' | 'id';
  /** Requested scope words this server knows, in the client's order. */
  scopes: string[];
  codeChallenge: string | null;
  inkwell: boolean;
  me: string | null;
  /** The screen's own path and query, where an emailed sign-in link brings the person back. */
  screenPath: string;
  createdAt: Date;
  expiresAt: Date;
  [key: string]: unknown;
}

/** An authorization code: bound to everything the redemption must match (10 min, single use). */
export interface AuthCodeDoc {
  /** SHA-256 of the code. */
  _id: string;
  userId: number;
  clientId: string;
  redirectUri: string;
  /** Granted scopes; empty → identity only. */
  scopes: string[];
  codeChallenge: string | null;
  inkwell: boolean;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  /** Set when someone presented the code again after it was used. */
  replayedAt: Date | null;
  /** Hash of the access token issued from it, so a replay can revoke that token. */
  tokenHash: string | null;
  [key: string]: unknown;
}

export interface IndieAuthTokenDoc {
  /** SHA-256 of the access token. */
  _id: string;
  userId: number;
  clientId: string;
  scopes: string[];
  /** The code it was issued from. */
  codeHash: string;
  createdAt: Date;
  revokedAt: Date | null;
  [key: string]: unknown;
}

/** Server secrets made on first start and shared by every replica through the store. */
export interface SecretDoc {
  _id: string;
  value: string;
  createdAt: Date;
  [key: string]: unknown;
}

export type ProfileFields = Partial<
  Pick<UserDoc, 'name' | 'fullName' | 'bio' | 'avatar' | 'links' | 'plan' | 'plans'>
>;
