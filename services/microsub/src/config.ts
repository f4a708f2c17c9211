// The microsub service's environment: the base variables, its port, and how far it walks a timeline
// to count unread items or find an entry. services/microsub/README.md and docs/configuration.md
// describe each variable.
import { z } from 'zod';
import { baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';

export const microsubConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('microsub'),
  /**
   * Items a request looks at, newest first, to count a channel's unread items, to find the items
   * named by `mark_unread`/`last_read_entry`, or to answer an `after` page. Bounds the work one
   * request can cause; counts stop there (docs/api/microsub.md).
   */
  MICROSUB_SCAN_LIMIT: envVar.int({ min: 100, max: 100_000 }).default(2000),
  /** Microsub requests per user per minute. */
  MICROSUB_REQUESTS_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(600),
  /**
   * `follow` (POST) and `preview` (GET or POST) per user per minute, together, within the above: a
   * follow of a web page fetches and reads it (reader discovery), the costliest thing a token can ask.
   */
  MICROSUB_FOLLOWS_PER_MINUTE: envVar.int({ min: 1, max: 1_000_000 }).default(30),
});

export type MicrosubConfig = z.output<typeof microsubConfigSchema>;
