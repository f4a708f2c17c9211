// Rendered GET /webmention bodies by ETag, per process. An ETag names the target's revision and the
// whole query, so a cached body is exactly what a fresh build would give until the next change; a
// change makes a new ETag (replicas share the revision through the store, never stale bodies).
export class ResponseCache {
  private readonly bodies = new Map<string, string>();

  constructor(
    private readonly maxEntries = 256,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  private bytes = 0;

  get(etag: string): string | undefined {
    const body = this.bodies.get(etag);
    if (body !== undefined) {
      // Most recently used last.
      this.bodies.delete(etag);
      this.bodies.set(etag, body);
    }
    return body;
  }

  set(etag: string, body: string): void {
    if (body.length > this.maxBytes / 4 || this.bodies.has(etag)) return;
    this.bodies.set(etag, body);
    this.bytes += body.length;
    for (const [key, value] of this.bodies) {
      if (this.bodies.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.bodies.delete(key);
      this.bytes -= value.length;
    }
  }
}
