// Bookkeeping both adapters need to drain: handlers still running, and the subscriptions a client opened.
import type { Subscription } from './port.js';

/** Handlers still running, so that unsubscribe and close wait for them instead of cutting them off. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const forget = () => this.running.delete(work);
    work.then(forget, forget);
    return work;
  }

  /** Resolves once everything tracked so far (and anything started meanwhile) has settled. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}

/** The open subscriptions of one client; each stops once, however often unsubscribe is called. */
export class SubscriptionSet {
  private readonly open = new Set<Subscription>();

  add(stop: () => Promise<void>): Subscription {
    let stopping: Promise<void> | undefined;
    const subscription: Subscription = {
      unsubscribe: () => {
        stopping ??= stop().finally(() => this.open.delete(subscription));
        return stopping;
      },
    };
    this.open.add(subscription);
    return subscription;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.unsubscribe()));
  }
}
