// Moderation: the operator blocks a source host (`murmur webmentions block HOST`) — its POSTs get a
// neutral 400 and its shown mentions leave; a user lists the mentions of their own sites, removes one
// (another user's is not found) and blocks a host for their own sites only.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@murmur/testing';
import { adminClient } from '../../../cli/src/admin-client.js';
import { runAdminCommand } from '../../../cli/src/commands.js';
import { ADA_POST, ADMIN_TOKEN, hEntry, startHarness, withSites, type Harness } from './harness.js';

describe('moderation', () => {
  let h: Harness;
  const lines: string[] = [];
  const cli = (...words: string[]) =>
    runAdminCommand(
      adminClient(h.url, ADMIN_TOKEN),
      words[0]!,
      words[1],
      { user: words[2] },
      { out: (l) => lines.push(l) },
    );
  const visible = async (target = ADA_POST) =>
    (
      (await h.request('GET', `/webmention?target=${encodeURIComponent(target)}`)).json() as {
        items: { url: string }[];
      }
    ).items.map((i) => i.url);

  beforeAll(async () => {
    h = await startHarness({ gateway: true });
    await withSites(h);
  });
  afterAll(() => h.stop());

  async function verified(host: string, path: string, target = ADA_POST) {
    h.sources.html(host, path, hEntry(`<a href="${target}">x</a>`));
    const source = h.sources.url(host, path);
    expect((await h.send(source, target)).statusCode).toBe(202);
    return h.waitForStatus(source, target, ['verified']);
  }

  it('`murmur webmentions block HOST` refuses the host with a neutral 400 and removes its shown mentions', async () => {
    const shown = await verified('spam.example', '/s1');
    await cli('webmentions', 'block', 'SPAM.example');
    expect(lines.at(-1)).toBe('webmentions from spam.example are refused');
    const res = await h.send(h.sources.url('spam.example', '/s2'), ADA_POST);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('source is not accepted by this service');
    await eventually(async () => h.deleted.find((e) => e.data.id === shown.id));
    expect(await visible()).not.toContain(h.sources.url('spam.example', '/s1'));

    await cli('webmentions', 'blocks');
    expect(lines.at(-1)).toMatch(/^spam\.example\t/);
    await cli('webmentions', 'unblock', 'spam.example');
    expect((await h.send(h.sources.url('spam.example', '/s2'), ADA_POST)).statusCode).toBe(202);
  });

  it('the operator API needs the admin token', async () => {
    expect((await h.request('PUT', '/admin/webmention/blocks/x.example')).statusCode).toBe(401);
    expect(
      (await h.request('PUT', '/admin/webmention/blocks/x.example', { token: h.tokens.ada })).statusCode,
    ).toBe(401);
    expect(
      (await h.request('PUT', '/admin/webmention/blocks/not_a_host!', { token: ADMIN_TOKEN })).statusCode,
    ).toBe(400);
  });

  it('a user lists the mentions of their own sites only', async () => {
    await verified('dave.example', '/d1');
    const mine = (await h.request('GET', '/webmention/mine', { token: h.tokens.ada })).json() as {
      items: { source: string }[];
    };
    expect(mine.items.map((i) => i.source)).toContain(h.sources.url('dave.example', '/d1'));
    const bobs = (await h.request('GET', '/webmention/mine', { token: h.tokens.bob })).json() as {
      items: unknown[];
    };
    expect(bobs.items).toEqual([]);
    expect((await h.request('GET', '/webmention/mine')).statusCode).toBe(401);
  });

  it('a user removes a mention of their site; another user gets 404; a re-send does not bring it back', async () => {
    const item = await verified('dave.example', '/d2');
    expect((await h.request('DELETE', `/webmention/${item.id}`, { token: h.tokens.bob })).statusCode).toBe(
      404,
    );
    expect((await h.request('DELETE', '/webmention/999999', { token: h.tokens.ada })).statusCode).toBe(404);
    const res = await h.request('DELETE', `/webmention/${item.id}`, { token: h.tokens.ada });
    expect(res.statusCode).toBe(204);
    await eventually(async () => h.deleted.find((e) => e.data.id === item.id));
    expect(await visible()).not.toContain(h.sources.url('dave.example', '/d2'));
    const source = h.sources.url('dave.example', '/d2');
    await h.send(source, ADA_POST);
    await h.waitForStatus(source, ADA_POST, ['removed_by_owner']);
    expect(await visible()).not.toContain(source);
  });

  it('a user blocks a source host for their own sites only', async () => {
    const bobPage = `${h.publicUrl}/sites/bob/2026/p.html`;
    expect(
      (await h.request('PUT', '/webmention/blocks/erin.example', { token: h.tokens.ada })).statusCode,
    ).toBe(200);
    expect((await h.send(h.sources.url('erin.example', '/e1'), ADA_POST)).statusCode).toBe(400);
    await verified('erin.example', '/e2', bobPage);
    const list = (await h.request('GET', '/webmention/blocks', { token: h.tokens.ada })).json() as {
      blocks: { host: string }[];
    };
    expect(list.blocks.map((b) => b.host)).toEqual(['erin.example']);
    expect(
      (await h.request('DELETE', '/webmention/blocks/erin.example', { token: h.tokens.ada })).statusCode,
    ).toBe(204);
    expect((await h.send(h.sources.url('erin.example', '/e1'), ADA_POST)).statusCode).toBe(202);
  });
});
