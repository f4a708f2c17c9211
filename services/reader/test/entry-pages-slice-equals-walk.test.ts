// selectEntries answers unfiltered pages (the commonest request, and the one that grows with the
// timeline) by slicing and a binary search, and pages of a few unread or starred entries by looking
// each one's place up, instead of walking the timeline. Whatever the timeline, `since`, offset and
// limit, they must give the page and total the walk gives — ties in created_at included (a `since`
// equal to an entry's time leaves it out), and unread or starred ids the timeline lacks left out.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { selectEntries, type EntryFilter } from '../src/domain/entries.js';
import type { UserView } from '../src/domain/views.js';

/**
 * A timeline of entries at `times`, newest first. Ids descend along it, or (`shuffled`) do not, which
 * makes lookups use the position map instead of a binary search over ids.
 */
function viewOf(times: number[], marked: { unread?: number[]; starred?: number[]; shuffled?: boolean } = {}) {
  const sorted = [...times].sort((a, b) => b - a);
  const ids = sorted.map((_, i) =>
    marked.shuffled ? ((i * 7919) % 1009) + 1 + i * 1009 : sorted.length - i,
  );
  return {
    ids: Float64Array.from(ids),
    times: Float64Array.from(sorted),
    feeds: new Float64Array(sorted.length).fill(1),
    unread: new Set<number>(marked.unread ?? []),
    starred: new Map((marked.starred ?? []).map((id) => [id, { entryId: id }])),
    unreadList: null,
    positions: null,
    idsDescending: !marked.shuffled,
  } as unknown as UserView;
}

/** The page as a walk of the whole timeline finds it. */
function walked(view: UserView, filter: EntryFilter, offset: number, limit: number) {
  const since = filter.sinceMicros;
  const page: number[] = [];
  let total = 0;
  for (let i = 0; i < view.ids.length; i++) {
    if (since !== undefined && view.times[i]! <= since) break;
    const id = view.ids[i]!;
    if (filter.read !== undefined && view.unread.has(id) === filter.read) continue;
    if (filter.starred !== undefined && view.starred.has(id) !== filter.starred) continue;
    if (total >= offset && page.length < limit) page.push(id);
    total++;
  }
  return { ids: page, total };
}

describe('an unfiltered page of entries', () => {
  it('is the page and total a walk of the timeline gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 200 }),
        fc.option(fc.integer({ min: -1, max: 51 }), { nil: undefined }),
        fc.nat(220),
        fc.integer({ min: 1, max: 120 }),
        (times, since, offset, limit) => {
          const view = viewOf(times);
          const filter = { sinceMicros: since };
          expect(selectEntries(view, filter, offset, limit)).toEqual(walked(view, filter, offset, limit));
        },
      ),
      { numRuns: 500, seed: Number(process.env.FUZZ_SEED ?? 42) },
    );
  });

  it('counts only the entries strictly newer than since', () => {
    const view = viewOf([30, 20, 20, 20, 10]);
    expect(selectEntries(view, { sinceMicros: 20 }, 0, 100)).toEqual({ ids: [5], total: 1 });
    expect(selectEntries(view, { sinceMicros: 19 }, 1, 2)).toEqual({ ids: [4, 3], total: 4 });
    expect(selectEntries(view, {}, 4, 10)).toEqual({ ids: [1], total: 5 });
    expect(selectEntries(view, { sinceMicros: 30 }, 0, 10)).toEqual({ ids: [], total: 0 });
  });
});

describe('a page of only unread, or only starred, entries', () => {
  it('is the page and total a walk of the timeline gives, with ids missing from the timeline left out', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 40, maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 400_000 }), { maxLength: 30 }),
        fc.boolean(),
        fc.constantFrom<EntryFilter>({ read: false }, { starred: true }),
        fc.option(fc.integer({ min: -1, max: 51 }), { nil: undefined }),
        fc.nat(40),
        fc.integer({ min: 1, max: 50 }),
        (times, picks, shuffled, only, since, offset, limit) => {
          const probe = viewOf(times, { shuffled });
          // Mostly ids on the timeline, some (the large picks) nowhere on it.
          const marked = picks.map((p) => (p % 3 === 0 ? p : probe.ids[p % probe.ids.length]!));
          const view = viewOf(times, { shuffled, unread: marked, starred: marked });
          const filter = { ...only, sinceMicros: since };
          expect(selectEntries(view, filter, offset, limit)).toEqual(walked(view, filter, offset, limit));
        },
      ),
      { numRuns: 500, seed: Number(process.env.FUZZ_SEED ?? 42) },
    );
  });
});
