// The signed extracted-content address of an entry (domain/extracts.ts says why it is signed). Part of
// the reader's context, so in a file of its own that does not need the context's type.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BoundedMemo } from '@murmur/core';
import type { EntryDoc, ReaderStore } from '../store/index.js';

/** 132 bits of the HMAC: unguessable, and short enough for a tidy URL. */
const SIGNATURE_CHARS = 22;
/** How many entries' signatures are remembered (about 100 bytes each). */
const REMEMBERED_SIGNATURES = 50_000;

/** Signs and checks the extracted-content address of an entry. */
export class ExtractLinks {
  // Every entry of a page carries its signed address, and a fresh HMAC costs about 4 µs: 0.4 ms of a
  // 100-entry page's CPU (a CPU profile of the reader under bench/gateway/run.mjs, 2026-11-28). A
  // signature never changes for an entry, and clients read the same entries again and again, so the
  // answers are remembered.
  private readonly signatures = new BoundedMemo<number, string>(REMEMBERED_SIGNATURES);

  private constructor(
    private readonly key: Buffer,
    private readonly publicUrl: string,
  ) {}

  static async open(store: ReaderStore, publicUrl: string): Promise<ExtractLinks> {
    const key = await store.settingOrCreate('extract-key', () => randomBytes(32).toString('base64url'));
    return new ExtractLinks(Buffer.from(key, 'base64url'), publicUrl.replace(/\/+$/, ''));
  }

  private signature(entryId: number): string {
    return this.signatures.answer(entryId, (id) =>
      createHmac('sha256', this.key).update(`entry:${id}`).digest('base64url').slice(0, SIGNATURE_CHARS),
    );
  }

  /** The address for an entry whose link is a web page; null otherwise (nothing to extract). */
  urlFor(entry: Pick<EntryDoc, '_id' | 'url'>): string | null {
    if (!entry.url || !/^https?:\/\//i.test(entry.url)) return null;
    return `${this.publicUrl}/feeds/v2/extract/${entry._id}/${this.signature(entry._id)}.json`;
  }

  /** Compared in constant time. */
  verify(entryId: number, signature: string): boolean {
    const expected = Buffer.from(this.signature(entryId));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
