// The federation flow between two Murmur instances, through their gateways only: bob on B follows
// @ada@A through the follow API (WebFinger, Follow, Accept); ada's post on A reaches bob's timeline on
// B with her card; bob's post mentioning @ada@A comes back to A into her mentions feed; bob's unfollow
// (Undo) takes him out of ada's followers, and her next post no longer reaches him.
import { expect } from '@jest/globals';
import { eventually, xmlrpc } from './client.js';

export interface FederationSide {
  gatewayUrl: string;
  adminToken: string;
}

interface Item {
  id: string;
  url?: string;
  content_html: string;
  author?: { name?: string; url?: string };
  _service?: { username?: string };
}

async function createUser(side: FederationSide, username: string): Promise<string> {
  const res = await fetch(`${side.gatewayUrl}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${side.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.test` }),
  });
  expect(res.status).toBe(201);
  const { token } = (await res.json()) as { token: string };
  await eventually(async () => {
    const me = await fetch(`${side.gatewayUrl}/account/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await me.json()) as { has_site?: boolean }).has_site ? true : undefined;
  }, `${username}'s site`);
  return token;
}

async function items(side: FederationSide, path: string): Promise<Item[]> {
  const res = await fetch(`${side.gatewayUrl}${path}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Item[] }).items;
}

async function followersOf(side: FederationSide, username: string): Promise<number> {
  const res = await fetch(`${side.gatewayUrl}/ap/users/${username}/followers`, {
    headers: { accept: 'application/activity+json' },
  });
  return ((await res.json()) as { totalItems: number }).totalItems;
}

function post(side: FederationSide, username: string, token: string, fields: Record<string, string>) {
  return eventually(async () => {
    try {
      return await xmlrpc(side.gatewayUrl, 'metaWeblog.newPost', ['0', username, token, fields, true]);
    } catch {
      return undefined;
    }
  }, 'newPost');
}

export async function runFederationFlow(a: FederationSide, b: FederationSide): Promise<void> {
  const hostA = new URL(a.gatewayUrl).host;
  const hostB = new URL(b.gatewayUrl).host;
  const suffix = Math.random().toString(36).slice(2, 7);
  const [ada, bob] = [`ada${suffix}`, `bob${suffix}`];
  const adaToken = await createUser(a, ada);
  const bobToken = await createUser(b, bob);

  // bob follows @ada@A: B looks her up (WebFinger, actor), sends Follow; A accepts.
  await eventually(async () => {
    const res = await fetch(`${b.gatewayUrl}/users/follow`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bobToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: `@${ada}@${hostA}` }),
    });
    return res.status === 200 ? true : undefined;
  }, 'follow');
  await eventually(
    async () => ((await followersOf(a, ada)) === 1 ? true : undefined),
    'ada has a follower',
    30_000,
  );

  // ada's post travels to bob's timeline on B, with her card.
  await post(a, ada, adaToken, { title: 'Hello', description: '<p>Hello fediverse</p>' });
  const [seen] = await eventually(
    async () => {
      const list = (await items(b, `/feeds/${bob}.json`)).filter((i) =>
        i.content_html.includes('Hello fediverse'),
      );
      return list.length === 1 ? list : undefined;
    },
    'ada’s post on B',
    30_000,
  );
  expect(seen!._service?.username).toBe(`${ada}@${hostA}`);
  expect(seen!.author?.url).toContain(hostA);

  // bob answers, naming @ada@A: it comes back to A, into her mentions feed.
  await post(b, bob, bobToken, { description: `<p>Welcome @${ada}@${hostA}!</p>` });
  const [reply] = await eventually(
    async () => {
      const list = await items(a, `/feeds/${ada}/mentions.json`);
      return list.length === 1 ? list : undefined;
    },
    'bob’s answer on A',
    30_000,
  );
  expect(reply!._service?.username).toBe(`${bob}@${hostB}`);
  expect(reply!.content_html).toContain('Welcome');

  // bob unfollows: Undo(Follow) — ada has no follower, and her next post stays on A.
  const unfollow = await fetch(`${b.gatewayUrl}/users/unfollow`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bobToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: `${ada}@${hostA}` }),
  });
  expect(unfollow.status).toBe(200);
  await eventually(
    async () => ((await followersOf(a, ada)) === 0 ? true : undefined),
    'follower gone',
    30_000,
  );
  await post(a, ada, adaToken, { title: 'Later', description: '<p>After the unfollow</p>' });
  await new Promise((r) => setTimeout(r, 3000));
  expect(
    (await items(b, `/feeds/${bob}.json`)).some((i) => i.content_html.includes('After the unfollow')),
  ).toBe(false);
}
