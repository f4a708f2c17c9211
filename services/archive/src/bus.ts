// Where the archive service meets other services. It subscribes to nothing and answers no request:
// archives change only through imports. It asks one question, `publishing.site.get` (domain/sites.ts),
// to check who owns a site before an import. The function exists so the service has the same shape
// as every other; a future subscription goes here.
import type { Subscription } from '@murmur/bus';
import type { ArchiveContext } from './domain/context.js';

export const GROUPS = {} as const;

export async function wireBus(_ctx: ArchiveContext): Promise<Subscription[]> {
  return [];
}
