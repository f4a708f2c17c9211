// A checked Bearer token (app or IndieAuth) and its user: made by indieauth-tokens.ts, presented by
// indieauth-json.ts. In a file of its own so that neither of the two imports the other for it.
import type { UserDoc } from '../store/index.js';

export interface ActiveToken {
  user: UserDoc;
  kind: 'app' | 'indieauth';
  /** `''` for app tokens. */
  clientId: string;
  /** App tokens carry every scope. */
  scopes: string[];
  hash: string;
  createdAt: Date;
}
