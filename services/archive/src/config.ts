// The archive service's environment: the base variables, its port, the import size cap and the
// number of sites whose search model a process keeps in memory. services/archive/README.md
// describes each variable.
import { z } from 'zod';
import { adminTokenVar, baseConfigShape, envVar, serviceConfigShape } from '@murmur/core';

export const archiveConfigSchema = z.object({
  ...baseConfigShape,
  ...serviceConfigShape('archive'),
  /** Operator token (shared with identity): `murmur archive import` may import into any site. Unset: owners only. */
  MURMUR_ADMIN_TOKEN: adminTokenVar().optional(),
  /** Largest import body in bytes (docs/security.md: 100 MiB). */
  ARCHIVE_IMPORT_MAX_BYTES: envVar.int({ min: 1024, max: 100 * 1024 * 1024 }).default(100 * 1024 * 1024),
  /**
   * Posts whose read model (order, search terms, months) one process keeps in memory, all sites
   * together (about half a kilobyte each); the least recently read sites' models are dropped beyond it.
   */
  ARCHIVE_INDEX_MAX_POSTS: envVar.int({ min: 1000, max: 100_000_000 }).default(200_000),
});

export type ArchiveConfig = z.output<typeof archiveConfigSchema>;
