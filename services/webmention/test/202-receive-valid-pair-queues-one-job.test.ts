// POST /webmention accepts a valid pair with 202, an empty text/plain body and no Location, and queues
// one verification job per pair while one is pending — whatever the encoding of the parameters.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sendOverWire } from '@murmur/testing';
import { ADA_POST, startHarness, withSites, type Harness } from './harness.js';

describe('POST /webmention accepted', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ runJobs: false, gateway: true });
    await withSites(h);
  });
  afterAll(() => h.stop());

  it('answers 202 with an empty text/plain body and no Location; one job is queued', async () => {
    const source = h.sources.url('carol.example', '/reply/1');
    const res = await h.send(source, ADA_POST);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers.location).toBeUndefined();
    const jobs = await h.jobsOf('webmention.mention.verify');
    expect(jobs.filter((j) => j.status === 'queued')).toHaveLength(1);
  });

  it('a second POST of the same pair while the job is pending queues nothing new', async () => {
    const source = h.sources.url('carol.example', '/reply/2');
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    const before = (await h.jobsOf('webmention.mention.verify')).length;
    expect((await h.send(source, ADA_POST)).statusCode).toBe(202);
    expect((await h.send(`${source}#again`, ADA_POST)).statusCode).toBe(202);
    expect((await h.jobsOf('webmention.mention.verify')).length).toBe(before);
  });

  it('accepts the query string and a JSON body as well as the form', async () => {
    const viaQuery = await sendOverWire(h.url, {
      method: 'POST',
      url: `/webmention?source=${encodeURIComponent(h.sources.url('dave.example', '/q'))}&target=${encodeURIComponent(ADA_POST)}`,
    });
    expect(viaQuery.statusCode).toBe(202);
    const viaJson = await sendOverWire(h.url, {
      method: 'POST',
      url: '/webmention',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ source: h.sources.url('dave.example', '/j'), target: ADA_POST }),
    });
    expect(viaJson.statusCode).toBe(202);
  });

  it('a query string already on the endpoint URL is harmless', async () => {
    const res = await sendOverWire(h.url, {
      method: 'POST',
      url: '/webmention?version=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        source: h.sources.url('dave.example', '/v'),
        target: ADA_POST,
      }).toString(),
    });
    expect(res.statusCode).toBe(202);
  });

  it('accepts a target with #frag on a user site, and any URL on a site on its own host', async () => {
    expect((await h.send(h.sources.url('erin.example', '/a'), `${ADA_POST}#comments`)).statusCode).toBe(202);
    expect((await h.send(h.sources.url('erin.example', '/b'), 'http://ada.example/about')).statusCode).toBe(
      202,
    );
  });

  it('accepts a URL under a site served at the public URL, and refuses another path there', async () => {
    const bobPage = `${h.publicUrl}/sites/bob/2026/11/21/x.html`;
    expect((await h.send(h.sources.url('erin.example', '/c'), bobPage)).statusCode).toBe(202);
    const other = await h.send(h.sources.url('erin.example', '/d'), `${h.publicUrl}/sites/nobody/x.html`);
    expect(other.statusCode).toBe(400);
    expect(other.body).toBe('target is not a resource of this service');
  });

  it('accepts a target on a site it never heard of but publishing has (created before it was deployed)', async () => {
    h.addUnannouncedSite({
      id: 77,
      userId: 7,
      username: 'carol',
      host: new URL(h.publicUrl).host,
      url: `${h.publicUrl}/sites/carol/`,
    });
    const res = await h.send(
      h.sources.url('erin.example', '/e'),
      `${h.publicUrl}/sites/carol/2026/11/20/y.html`,
    );
    expect(res.statusCode).toBe(202);
    // Kept: the next one is answered without asking publishing again.
    expect(await h.store.collection('sites').findOne({ _id: 77 })).toMatchObject({ userId: 7 });
  });

  it('accepts a known post permalink', async () => {
    await h.postEvent('published', {
      id: 9,
      userId: 2,
      url: 'https://elsewhere.example/p/9',
      contentHtml: '<p>hi</p>',
    });
    const { eventually } = await import('@murmur/testing');
    await eventually(async () => {
      const res = await h.send(h.sources.url('erin.example', '/p9'), 'https://elsewhere.example/p/9');
      return res.statusCode === 202 ? res : undefined;
    });
  });
});
