// One URL chooses where blobs live, the same URL as the service's store (STORE_URL): embedded files next
// to the embedded database, GridFS in the service's MongoDB database, or memory for tests.
import { fileURLToPath } from 'node:url';
import { FileBlobStore, MemoryBlobStore } from '@murmur/store-embedded';
import type { BlobStore } from '@murmur/store';

export interface OpenBlobStoreOptions {
  /** The owning service: `<dir>/<service>/blobs/` or database `murmur_<service>`. */
  service: string;
}

/**
 * - `memory:` → in memory, private to this blob store;
 * - `memory:<name>` → in memory, shared by every blob store opened with that name and service in this process;
 * - `file:<dir>` (or `file:///abs/dir`) → files under `<dir>/<service>/blobs/`;
 * - `mongodb://…`, `mongodb+srv://…` → GridFS bucket `blobs` in `murmur_<service>` unless the URL names a database.
 */
export async function openBlobStore(url: string, options: OpenBlobStoreOptions): Promise<BlobStore> {
  const { service } = options;
  if (url.startsWith('memory:')) {
    const name = url.slice('memory:'.length);
    return MemoryBlobStore.open({ service, ...(name ? { name } : {}) });
  }
  if (url.startsWith('file:')) {
    const dir = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
    if (!dir) throw new Error('blob store URL file: needs a directory, e.g. file:./data');
    return FileBlobStore.open({ dir, service });
  }
  if (url.startsWith('mongodb://') || url.startsWith('mongodb+srv://')) {
    // Loaded on demand, like the MongoDB store adapter: only the distributed mode needs the driver.
    const { GridFsBlobStore } = await import('@murmur/store-mongodb');
    return GridFsBlobStore.connect(url, { service });
  }
  throw new Error(
    `unsupported blob store URL ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//***@'))}: use memory:, file:<dir> or mongodb://…`,
  );
}
