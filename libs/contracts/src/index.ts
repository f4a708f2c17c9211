export * from './bus.js';
export * as identity from './identity.js';
export type { PublicUser, Scope, TokenKind } from './identity.js';
export { SCOPES } from './identity.js';
export * as publishing from './publishing.js';
export * as mail from './mail.js';
export * as reader from './reader.js';
export * as feeds from './feeds.js';
export * as webmention from './webmention.js';
