// What a feed route needs to answer: validators first (so a conditional GET is answered without
// building the feed), then the feed itself.
import { createHash } from 'node:crypto';
import type { JsonFeed } from '../shapes.js';

export interface FeedView {
  /** Stands for everything the body depends on; undefined → the route hashes the built body. */
  validator?: string;
  /** When the feed last changed (ms since the epoch), 0 when unknown. */
  changedAtMs: number;
  build(): Promise<JsonFeed>;
}

export function validatorOf(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32);
}
