// Group commit for the delivery log: every delivery in flight in this process hands its entry here,
// and the entries that arrived while the previous write ran go to the store together, in one
// insertMany (one transaction and one fsync on the embedded store instead of one per delivery). A
// caller's promise settles once its own entry is stored (or the write failed), so a delivery job
// still finishes only after its log entries are written.
import type { PushStore } from '../store/index.js';

type NewDelivery = Parameters<PushStore['logDeliveries']>[0][number];

interface Pending {
  entry: NewDelivery;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** At most this many entries per store write. */
export const LOG_BATCH_MAX = 500;

export class DeliveryLogWriter {
  private pending: Pending[] = [];
  private writing = false;

  constructor(private readonly store: PushStore) {}

  /** Resolves once `entry` is in the delivery log. */
  write(entry: NewDelivery): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ entry, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, LOG_BATCH_MAX);
        try {
          await this.store.logDeliveries(batch.map((p) => p.entry));
          for (const p of batch) p.resolve();
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
