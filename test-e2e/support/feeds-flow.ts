// The feeds flow every deployment mode must pass, through the gateway only: two users; ada follows bob;
// bob publishes over XML-RPC (publishing) and the post reaches ada's timeline (feeds, from the post
// event); an edit updates it; a post mentioning @ada reaches her mentions feed; deletions remove both.
import { expect } from '@jest/globals';
import { eventually, xmlrpc } from './client.js';

export interface FeedsFlowTarget {
  gatewayUrl: string;
  adminToken: string;
}

interface Item {
  id: string;
  title?: string;
  content_html: string;
  _service?: { username?: string };
}

export async function runFeedsFlow({ gatewayUrl, adminToken }: FeedsFlowTarget): Promise<void> {
  const suffix = Math.random().toString(36).slice(2, 7);
  const [ada, bob] = [`ada${suffix}`, `bob${suffix}`];
  const tokens: Record<string, string> = {};
  for (const username of [ada, bob]) {
    const res = await fetch(`${gatewayUrl}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.test` }),
    });
    expect(res.status).toBe(201);
    tokens[username] = ((await res.json()) as { token: string }).token;
  }
  // feeds learns users from identity's events (or asks identity): retry until it knows bob.
  await eventually(async () => {
    const res = await fetch(`${gatewayUrl}/users/follow`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[ada]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: bob }),
    });
    return res.status === 200 ? true : undefined;
  }, 'follow');

  const timeline = async (username: string, path = '.json') => {
    const res = await fetch(`${gatewayUrl}/feeds/${username}${path}`);
    expect(res.status).toBe(200);
    const feed = (await res.json()) as { version: string; items: Item[] };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    return feed.items;
  };

  // bob's default site comes from identity's user.created event; publishing needs it to post.
  const created = await eventually(async () => {
    try {
      return await xmlrpc(gatewayUrl, 'metaWeblog.newPost', [
        '0',
        bob,
        tokens[bob]!,
        { title: 'Hello', description: '<p>Hello world</p>' },
        true,
      ]);
    } catch {
      return undefined;
    }
  }, 'newPost');
  const postId = /<value>(?:<(?:string|int|i4)>)?(\d+)/.exec(created)![1]!;
  const seen = await eventually(async () => {
    const items = await timeline(ada);
    return items.length === 1 ? items : undefined;
  }, 'timeline');
  expect(seen[0]).toMatchObject({ id: postId, title: 'Hello', _service: { username: bob } });

  await xmlrpc(gatewayUrl, 'metaWeblog.editPost', [
    postId,
    bob,
    tokens[bob]!,
    { title: 'Hello again', description: '<p>Edited</p>' },
    true,
  ]);
  await eventually(
    async () => ((await timeline(ada))[0]?.title === 'Hello again' ? true : undefined),
    'edit',
  );

  const mention = await xmlrpc(gatewayUrl, 'metaWeblog.newPost', [
    '0',
    bob,
    tokens[bob]!,
    { description: `hi @${ada}` },
    true,
  ]);
  const mentionId = /<value>(?:<(?:string|int|i4)>)?(\d+)/.exec(mention)![1]!;
  const mentions = await eventually(async () => {
    const items = await timeline(ada, '/mentions.json');
    return items.length === 1 ? items : undefined;
  }, 'mentions');
  expect(mentions[0]!.id).toBe(mentionId);

  await xmlrpc(gatewayUrl, 'metaWeblog.deletePost', [postId, bob, tokens[bob]!]);
  await xmlrpc(gatewayUrl, 'metaWeblog.deletePost', [mentionId, bob, tokens[bob]!]);
  await eventually(async () => ((await timeline(ada)).length === 0 ? true : undefined), 'delete');
  expect(await timeline(ada, '/mentions.json')).toEqual([]);
}
