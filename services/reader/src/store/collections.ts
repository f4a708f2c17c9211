// The reader's collections, opened once. Only the query classes built on this one (store/feeds.ts,
// store/users.ts, store/index.ts) see them: domain code asks those for what it needs by name.
import type { Collection, Store } from '@murmur/store';
import type {
  FeedDoc,
  FeedTimelineDoc,
  PrunedKeysDoc,
  EntryDoc,
  UserStateDoc,
  SubscriptionDoc,
  TaggingDoc,
  TagDoc,
  IconDoc,
  HighlightDoc,
  RecapDoc,
  RecapSettingsDoc,
  ImportDoc,
  ScheduleDoc,
  SettingDoc,
  ExtractDoc,
  WebSubDoc,
} from './documents.js';

export class ReaderCollections {
  protected readonly feeds: Collection<FeedDoc>;
  protected readonly timelines: Collection<FeedTimelineDoc>;
  protected readonly prunedKeys: Collection<PrunedKeysDoc>;
  protected readonly entries: Collection<EntryDoc>;
  protected readonly states: Collection<UserStateDoc>;
  protected readonly subscriptions: Collection<SubscriptionDoc>;
  protected readonly taggings: Collection<TaggingDoc>;
  protected readonly tags: Collection<TagDoc>;
  protected readonly icons: Collection<IconDoc>;
  protected readonly highlights: Collection<HighlightDoc>;
  protected readonly recaps: Collection<RecapDoc>;
  protected readonly recapSettings: Collection<RecapSettingsDoc>;
  protected readonly imports: Collection<ImportDoc>;
  protected readonly schedule: Collection<ScheduleDoc>;
  protected readonly settings: Collection<SettingDoc>;
  protected readonly extracts: Collection<ExtractDoc>;
  protected readonly websub: Collection<WebSubDoc>;

  constructor(readonly raw: Store) {
    // Id counters (reserveIds, nextId) are acknowledged once committed, not once on disk: an id only
    // matters once a document carrying it is written, and that write's fsync covers the counter's
    // earlier commit too (one database, its WAL written in order: no crash keeps the document and
    // loses the count). So a poll's or a subscription's ids cost no fsync wait of their own.
    raw.collection('counters', { durability: 'relaxed' });
    // Feed records hold what a fetch recreates (title, validators, when to poll next) and the
    // subscriber count. A poll that stores entries writes its record in the entries' own step, and so
    // under their fsync; a 304 or a failure writes only the schedule, which a crash may roll back to
    // an earlier poll (the feed is polled again sooner) — so it waits for no fsync. The count changes
    // with a durable write after it in the same step or request (domain/subscriptions.ts), whose
    // fsync covers it: the WAL is written in order, no crash keeps the later write and loses it.
    this.feeds = raw.collection('feeds', { durability: 'relaxed' });
    this.timelines = raw.collection('feed_timelines');
    this.prunedKeys = raw.collection('pruned_keys');
    this.entries = raw.collection('entries');
    this.states = raw.collection('user_states');
    this.subscriptions = raw.collection('subscriptions');
    this.taggings = raw.collection('taggings');
    this.tags = raw.collection('tags');
    this.icons = raw.collection('icons');
    this.highlights = raw.collection('highlights');
    this.recaps = raw.collection('recaps');
    this.recapSettings = raw.collection('recap_settings');
    this.imports = raw.collection('imports');
    this.schedule = raw.collection('schedule');
    this.settings = raw.collection('settings');
    this.extracts = raw.collection('extracts');
    this.websub = raw.collection('websub_subscriptions');
  }
}
