// The data of the feeds and microsub benchmarks (bench/README.md "Feeds timelines", "Microsub"), seeded
// straight into feeds' store as its events would have stored it (users, sites, follows, posts), so feeds
// builds its index from the store as after a restart. Both benchmarks seed it from here so they measure
// the same timelines: the same sizes and seed give the same documents.
import { performance } from 'node:perf_hooks';

/** Follows `heavyFollows` others (users 3…); the Microsub benchmark's user. */
export const HEAVY = 1;
/** Followed by `popularFollowers` others (users 3…). */
export const POPULAR = 2;

/** The sizes, from the environment run.mjs gives its server (BENCH_USERS, BENCH_POSTS, …). */
export function sizesFromEnv(env = process.env) {
  const number = (name, fallback) => Number(env[name] ?? fallback);
  return {
    users: number('BENCH_USERS', 10_000),
    posts: number('BENCH_POSTS', 200_000),
    heavyFollows: number('BENCH_HEAVY_FOLLOWS', 2_000),
    popularFollowers: number('BENCH_POPULAR_FOLLOWERS', 5_000),
    backgroundFollows: number('BENCH_BACKGROUND_FOLLOWS', 5),
  };
}

/**
 * Seeds `store` (feeds' store, its indexes made by `FeedsStore` of services/feeds) with `sizes`' users,
 * sites, follow edges and posts, posts published over the year before `now` (ms). A deterministic
 * generator (seed 42) makes every run seed the same data. Returns the seconds it took and the edges.
 */
export async function seedFeedsStore(store, FeedsStore, sizes, { now = Date.now() } = {}) {
  const { users, posts, heavyFollows, popularFollowers, backgroundFollows } = sizes;
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = (n) => 1 + Math.floor(random() * n);

  const feeds = new FeedsStore(store);
  await feeds.createIndexes();
  const started = performance.now();
  const chunks = async (collection, make, total) => {
    for (let from = 0; from < total; from += 5000) {
      const docs = [];
      for (let i = from; i < Math.min(total, from + 5000); i++) docs.push(make(i));
      await store.collection(collection).insertMany(docs);
    }
  };
  await chunks(
    'users',
    (i) => ({
      _id: i + 1,
      username: `u${i + 1}`,
      usernameKey: `u${i + 1}`,
      name: `User ${i + 1}`,
      avatar: `https://img.example/${i + 1}.png`,
      rev: 0,
      graphVersion: 0,
    }),
    users,
  );
  await chunks(
    'sites',
    (i) => ({
      _id: i + 1,
      userId: i + 1,
      username: `u${i + 1}`,
      url: `https://u${i + 1}.example/`,
      isDefault: true,
      title: `Site ${i + 1}`,
      description: '',
      rev: 0,
    }),
    users,
  );
  const edges = new Set();
  const edge = (a, b) => {
    if (a !== b) edges.add(`${a} ${b}`);
  };
  for (let i = 0; i < heavyFollows; i++) edge(HEAVY, 3 + i);
  for (let i = 0; i < popularFollowers; i++) edge(3 + i, POPULAR);
  edge(HEAVY, POPULAR);
  for (let u = 3; u <= users; u++) for (let k = 0; k < backgroundFollows; k++) edge(u, pick(users));
  const list = [...edges].map((e) => e.split(' ').map(Number));
  await chunks(
    'follows',
    (i) => ({ followerId: list[i][0], followeeId: list[i][1], createdAt: new Date(0) }),
    list.length,
  );
  await chunks(
    'posts',
    (i) => {
      const userId = pick(users);
      const id = i + 1;
      const photos = random() < 0.1 ? [`https://img.example/p/${id}.jpg`] : [];
      const mentioned = random() < 0.05 ? pick(users) : 0;
      return {
        _id: id,
        userId,
        siteId: userId,
        url: `https://u${userId}.example/posts/${id}`,
        title: random() < 0.3 ? `Post number ${id}` : '',
        contentHtml: `<p>Post ${id} by u${userId}${mentioned ? ` mentioning @u${mentioned}` : ''}: ${'lorem ipsum dolor sit amet '.repeat(6)}</p>`,
        contentText: `Post ${id} by u${userId}: ${'lorem ipsum dolor sit amet '.repeat(6)}`,
        publishedAt: new Date(now - Math.floor(random() * 365 * 86_400_000)),
        photos,
        mentionIds: mentioned ? [mentioned] : [],
        categories: [],
        visible: true,
        rev: 4,
      };
    },
    posts,
  );
  return { seconds: (performance.now() - started) / 1000, follows: list.length };
}
