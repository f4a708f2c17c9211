// Politeness (docs/security.md, outbound limits): at most one verification fetch per source host at a
// time in this process. Each host's fetches queue behind the previous one; the map forgets a host as
// soon as its queue is empty. (Replicas each keep their own turns.)
export class HostTurns {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(host: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(host) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(host, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(host) === tail) this.tails.delete(host);
    }
  }
}
