// Chaos under load (docs/operations.md "Failure and recovery"): identity, publishing, feeds and the
// gateway each in its own process over a real nats-server, while clients create accounts, follow an
// author and the author publishes. Meanwhile a random part is killed with SIGKILL and restarted,
// nats-server is restarted with an empty store (every stream and consumer gone), and publishing is
// paused with SIGSTOP for longer than its outbox lease, then resumed.
//
// Afterwards: every acknowledged write is there (accounts, tokens, sites, follows, posts), every event's
// effect is visible in its consumer (each account has its site; each acknowledged post is in every
// acknowledged follower's timeline), no effect is duplicated (no timeline holds a post twice, no user
// has two default sites), and every /readyz is 200 again within a bound. The counts are printed.
//
// Events cross processes asynchronously, and a loaded machine is slow: the checks wait for as long as
// the missing effects keep coming in, and fail only once nothing came in for longer than any pause the
// system takes on purpose (`settle`). A failure names each missing effect and where its event stopped:
// the producer's outbox row, the EVENTS stream, the consumer's position, a dead letter.
//
// It runs twice: on each service's embedded store, and in the shape docker-compose.yml describes on a
// MongoDB-wire store (skipped, saying so, without MONGO_URL; failing under REQUIRE_MONGO=1, as in CI).
// CI runs the bounded form (about a minute each). Longer: `npm run chaos -- --seconds 300` (scripts/murmur.mjs),
// or CHAOS_SECONDS / CHAOS_KILL_EVERY_MS / CHAOS_SEED with jest.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { identity, publishing as publishingContract } from '@murmur/contracts';
import { describeWithNats, traceEvents, type TrailEnvelope } from '@murmur/testing';
import { describeWithMongo, findMongo } from '../../libs/store-mongodb/test/mongo-server.js';
import { startCluster, type Cluster, type PartName } from '../support/cluster.js';
import { newPostId, xmlrpc } from '../support/client.js';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 20);
const KILL_EVERY_MS = Number(process.env.CHAOS_KILL_EVERY_MS ?? 5_000);
let seed = Number(process.env.CHAOS_SEED ?? Date.now() % 100_000);
const SEED = seed;
/** A small deterministic generator, so a failing run can be repeated with CHAOS_SEED. */
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
}
/** Publishing's outbox relay lease is 15 s (libs/jobs/src/outbox/outbox.ts): pause past it. */
const PAUSE_MS = 17_000;
const READY_BOUND_MS = 30_000;
/** Feeds shows at most 100 items; the author publishes fewer. */
const MAX_POSTS = 90;
const POST_EVERY_MS = Math.max(100, (SECONDS * 1000 + PAUSE_MS) / MAX_POSTS);

interface Account {
  id: number;
  username: string;
  token: string;
  /** When its creation was acknowledged. */
  createdAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Without progress for this long, what is still missing is lost. It outlasts the longest pause the
 * system takes on purpose: JetStream redelivers an event a killed consumer held after its ack wait
 * (30 s, libs/bus-nats/src/nats-streams.ts), the outbox settles a staged event a killed producer
 * left after 30 s and backs publish retries off to 30 s (libs/jobs/src/outbox/outbox.ts).
 */
const STALL_MS = 60_000;
/** The longest any wait may last, progress or not. */
const SETTLE_CAP_MS = 240_000;

/**
 * Waits until `done` holds for every item. A loaded machine is slow, not lossy: the wait goes on while
 * the number of items still missing keeps falling, and ends STALL_MS (stretched to three of the
 * slowest check rounds on a very slow machine) after the last item came in, or at SETTLE_CAP_MS. Items
 * already done are not asked again (the final count checks everything). Returns how long it took and
 * how the count fell (`count@seconds`), for the report.
 */
async function settle<T>(
  what: string,
  items: readonly T[],
  done: (item: T) => Promise<boolean>,
): Promise<{ ms: number; left: number; history: string }> {
  const started = Date.now();
  let left = [...items];
  let lastProgress = started;
  let slowestRound = 0;
  const history: string[] = [];
  for (;;) {
    const round = Date.now();
    const still: T[] = [];
    // A few at a time: the checks go through the gateway like any client, and must not starve the
    // consumers they are waiting for.
    for (let i = 0; i < left.length; i += 4) {
      const batch = left.slice(i, i + 4);
      const ok = await Promise.all(batch.map((item) => done(item).catch(() => false)));
      batch.forEach((item, j) => ok[j] || still.push(item));
    }
    slowestRound = Math.max(slowestRound, Date.now() - round);
    if (still.length < left.length || history.length === 0) {
      lastProgress = Date.now();
      history.push(`${still.length}@${((Date.now() - started) / 1000).toFixed(1)}`);
    }
    left = still;
    const now = Date.now();
    if (left.length === 0 || now - started > SETTLE_CAP_MS) break;
    if (now - lastProgress > Math.max(STALL_MS, 3 * slowestRound)) {
      history.push(`no progress for ${((now - lastProgress) / 1000).toFixed(0)} s`);
      break;
    }
    await sleep(250);
  }
  return { ms: Date.now() - started, left: left.length, history: `${what} missing ${history.join(' ')}` };
}

/** The run, on the cluster `start` gives (`store` names its store in the printed counts). */
function chaos(store: string, start: () => Promise<Cluster>): void {
  let cluster: Cluster;
  beforeAll(async () => {
    seed = SEED;
    cluster = await start();
  }, 180_000);
  afterAll(() => cluster?.stop(), 90_000);

  test(
    'every acknowledged write and every event effect survives, once',
    async () => {
      const base = cluster.gatewayUrl;
      const admin = { authorization: `Bearer ${cluster.adminToken}`, 'content-type': 'application/json' };
      const counts = {
        seed: SEED,
        operations: 0,
        failedAttempts: 0,
        kills: 0,
        natsRestarts: 0,
        pauses: 0,
        accounts: 0,
        follows: 0,
        postsAcknowledged: 0,
        postsUnacknowledged: 0,
        eventsChecked: 0,
        lost: 0,
        duplicated: 0,
        readyAgainMs: 0,
        sitesSettledMs: 0,
        timelinesSettledMs: 0,
        /** From the logs of the processes still running (a killed one's log is gone): how the parts healed. */
        consumersRecreated: 0,
        eventsSentAgain: 0,
      };
      let natsLostAt = 0;
      /** When something happened, relative to the moment NATS lost its store (the likeliest culprit). */
      const when = (at: number) =>
        natsLostAt === 0
          ? 'before NATS lost its store'
          : `${((at - natsLostAt) / 1000).toFixed(1)} s ${at < natsLostAt ? 'before' : 'after'} NATS lost its store`.replace(
              '-',
              '',
            );
      const trace = async (
        producer: 'identity' | 'publishing',
        subject: string,
        durable: string,
        keys: string[],
        keyOf: (e: TrailEnvelope) => string,
        label: (key: string) => string,
      ): Promise<string[]> => {
        if (keys.length === 0) return [];
        const trail = await traceEvents(
          { storeDir: cluster.storeDir(producer), producer, subject, durable, natsUrl: cluster.natsUrl },
          keys,
          keyOf,
        );
        return [
          `${durable} consumer: ${trail.consumer}`,
          ...keys.map(
            (k) =>
              `${label(k)}: ${producer} outbox ${trail.outbox.get(k)}; EVENTS stream ${trail.stream.get(k)}` +
              (trail.deadLettered.has(k) ? `; dead-lettered: ${trail.deadLettered.get(k)}` : ''),
          ),
        ];
      };

      /** POST /admin/users until acknowledged: a retry of the same account returns it (idempotent). */
      const createAccount = async (username: string): Promise<Account> => {
        for (;;) {
          counts.operations++;
          try {
            const res = await fetch(`${base}/admin/users`, {
              method: 'POST',
              headers: admin,
              body: JSON.stringify({ username, email: `${username}@example.test` }),
            });
            if (res.status === 201) {
              const body = (await res.json()) as { id: number; token: string };
              return { id: body.id, username, token: body.token, createdAt: Date.now() };
            }
            if (res.status < 500) throw new Error(`creating ${username}: ${res.status} ${await res.text()}`);
          } catch (err) {
            if (err instanceof Error && err.message.startsWith('creating')) throw err;
          }
          counts.failedAttempts++;
          await sleep(200);
        }
      };

      const author = await createAccount('author');
      const followers: Account[] = [];
      const posts: string[] = [];
      let stopLoad = false;

      const follow = async (who: Account): Promise<boolean> => {
        for (let attempt = 0; attempt < 200 && !stopLoad; attempt++) {
          counts.operations++;
          try {
            const res = await fetch(`${base}/users/follow`, {
              method: 'POST',
              headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ username: author.username }),
            });
            // 200 also when an earlier, unanswered attempt landed (one follow is stored).
            if (res.status === 200) return true;
          } catch {
            /* a part is down: try again */
          }
          counts.failedAttempts++;
          await sleep(200);
        }
        return false;
      };

      // Clients: new accounts that follow the author; the author publishing (a post is acknowledged
      // only by its id in the answer; an unanswered one may or may not exist, and is never retried).
      const signups = (async () => {
        for (let i = 0; !stopLoad; i++) {
          const account = await createAccount(`reader${i}`);
          counts.accounts++;
          if (await follow(account)) {
            followers.push(account);
            counts.follows++;
          }
          await sleep(20);
        }
      })();
      const publishing = (async () => {
        while (!stopLoad && posts.length < MAX_POSTS) {
          counts.operations++;
          try {
            const answer = await xmlrpc(base, 'metaWeblog.newPost', [
              '0',
              author.username,
              author.token,
              { title: `Post ${posts.length + counts.postsUnacknowledged}`, description: 'under load' },
              true,
            ]);
            posts.push(newPostId(answer));
          } catch {
            counts.postsUnacknowledged++;
            counts.failedAttempts++;
          }
          // Spread over the whole run, so posts are in flight through every kill, the NATS restart
          // and the pause.
          await sleep(POST_EVERY_MS);
        }
      })();

      // Chaos: kill -9 and restart a random part every KILL_EVERY_MS; NATS lost half-way; then a pause.
      const victims: PartName[] = ['identity', 'publishing', 'feeds', 'gateway'];
      const started = Date.now();
      let natsDone = false;
      while (Date.now() - started < SECONDS * 1000) {
        await sleep(KILL_EVERY_MS * (0.5 + random()));
        if (!natsDone && Date.now() - started > (SECONDS * 1000) / 2) {
          natsLostAt = Date.now();
          await cluster.restartNatsEmpty();
          counts.natsRestarts++;
          natsDone = true;
          continue;
        }
        const victim = victims[Math.floor(random() * victims.length)]!;
        await cluster.killAndRestart(victim);
        counts.kills++;
      }
      cluster.pause('publishing');
      counts.pauses++;
      await sleep(PAUSE_MS);
      cluster.resume('publishing');

      stopLoad = true;
      await Promise.all([signups, publishing]);
      counts.readyAgainMs = await cluster.allReady(READY_BOUND_MS);

      // Accounts and tokens: every acknowledged account exists and its token works.
      for (const account of [author, ...followers]) {
        const me = await fetch(`${base}/account/me`, {
          headers: { authorization: `Bearer ${account.token}` },
        });
        expect(me.status).toBe(200);
      }

      // user.created → publishing: every account has a default site. Accounts made during the pause
      // queue up for publishing, which works through them afterwards: on a loaded machine that takes a
      // while, so the wait lasts as long as the missing sites keep getting fewer (see `settle`).
      const accounts = [author, ...followers];
      const siteCounts = async (account: Account): Promise<number | undefined> => {
        const res = await fetch(`${base}/admin/sites?username=${account.username}`, { headers: admin });
        if (res.status !== 200) return undefined;
        const { sites } = (await res.json()) as { sites: Array<{ isDefault: boolean }> };
        return sites.filter((s) => s.isDefault).length;
      };
      const sites = await settle('sites', accounts, async (a) => ((await siteCounts(a)) ?? 0) > 0);
      counts.sitesSettledMs = sites.ms;
      counts.eventsChecked += accounts.length;

      // post.published → feeds, and follows: each acknowledged post in every follower's timeline.
      const timelineOf = async (follower: Account): Promise<string[] | undefined> => {
        const res = await fetch(`${base}/feeds/${follower.username}.json?count=100`);
        if (res.status !== 200) return undefined;
        return ((await res.json()) as { items: Array<{ id: string }> }).items.map((i) => i.id);
      };
      const timelines = await settle('timelines', followers, async (f) => {
        const ids = new Set((await timelineOf(f)) ?? []);
        return posts.every((p) => ids.has(p));
      });
      counts.timelinesSettledMs = timelines.ms;

      // The final count, over everything (not only what was still missing): once, and all there.
      const missing: string[] = [];
      for (const account of accounts) {
        const defaults = await siteCounts(account);
        if (defaults === undefined || defaults === 0) {
          counts.lost++;
          missing.push(`site of ${account.username}`);
        }
        if ((defaults ?? 0) > 1) counts.duplicated += (defaults ?? 0) - 1;
      }
      const missingPosts = new Map<string, string[]>();
      for (const follower of followers) {
        const ids = await timelineOf(follower);
        if (ids === undefined) {
          counts.lost += posts.length;
          missing.push(`timeline of ${follower.username} (not 200)`);
          continue;
        }
        counts.duplicated += ids.length - new Set(ids).size;
        const have = new Set(ids);
        for (const p of posts.filter((p) => !have.has(p))) {
          counts.lost++;
          missingPosts.set(p, [...(missingPosts.get(p) ?? []), follower.username]);
        }
        counts.eventsChecked += posts.length;
      }
      for (const [post, who] of missingPosts) {
        missing.push(`post ${post} in ${who.length} timeline(s): ${who.slice(0, 5).join(', ')}`);
      }
      counts.postsAcknowledged = posts.length;
      for (const name of cluster.services) {
        for (const line of cluster.output(name).split('\n')) {
          if (line.includes('bus consumer recreated')) counts.consumersRecreated++;
          const sentAgain = /"events":(\d+).*the bus lost the events it had stored/.exec(line);
          if (sentAgain) counts.eventsSentAgain += Number(sentAgain[1]);
        }
      }

      // Where each missing effect got stuck: the producer's outbox row, the EVENTS stream, the consumer.
      const diagnosis: string[] = [];
      if (counts.lost > 0) {
        const missingSites = accounts.filter((a) => missing.includes(`site of ${a.username}`));
        diagnosis.push(
          ...(await trace(
            'identity',
            identity.userCreated.subject,
            'publishing-user-created',
            missingSites.map((a) => String(a.id)),
            (e) => String((e.data as { user?: { id?: number } }).user?.id),
            (id) => {
              const a = missingSites.find((x) => String(x.id) === id)!;
              return `site of ${a.username} (user ${id}, created ${when(a.createdAt)})`;
            },
          )),
          ...(await trace(
            'publishing',
            publishingContract.postPublished.subject,
            'feeds-post-published',
            [...missingPosts.keys()],
            (e) => String((e.data as { id?: number }).id),
            (id) => `post ${id} (missing in ${missingPosts.get(id)!.length} timeline(s))`,
          )),
        );
        diagnosis.push(`sites: ${sites.history}`, `timelines: ${timelines.history}`);
      }
      console.log(`chaos (${store} store): ${JSON.stringify(counts)}`);
      if (diagnosis.length > 0) console.log(`chaos: missing\n${diagnosis.join('\n')}`);
      expect(counts.kills + counts.natsRestarts).toBeGreaterThan(0);
      expect(followers.length).toBeGreaterThan(0);
      expect(posts.length).toBeGreaterThan(0);
      expect({ lost: counts.lost, duplicated: counts.duplicated, missing, diagnosis }).toEqual({
        lost: 0,
        duplicated: 0,
        missing: [],
        diagnosis: [],
      });
      expect(counts.readyAgainMs).toBeLessThan(READY_BOUND_MS);
    },
    (SECONDS + 60) * 1000 + PAUSE_MS + 2 * SETTLE_CAP_MS,
  );
}

const PARTS = ['identity', 'publishing', 'feeds'] as const;

describeWithNats('chaos: kill -9, NATS lost, a paused service — nothing lost, nothing twice', () =>
  chaos('embedded', () => startCluster(PARTS)),
);

// The same run in the shape docker-compose.yml describes (test-e2e/support/deployed.ts): each service with its
// own database on the MongoDB-wire server (CI: FerretDB, scripts/ferretdb.mjs), NATS with deploy/compose/nats.conf.
const mongo = await findMongo();
describeWithMongo(
  mongo,
  'chaos on a MongoDB-wire store, as docker-compose.yml runs the services',
  (mongoUrl) =>
    describeWithNats('kill -9, NATS lost, a paused service — nothing lost, nothing twice', () =>
      chaos('mongodb', () => startCluster(PARTS, 'http://murmur.test', {}, undefined, { mongoUrl })),
    ),
);
