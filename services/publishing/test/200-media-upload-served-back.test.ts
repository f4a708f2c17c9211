// newMediaObject stores an image under an unguessable name and returns {url, id}; the URL serves the same
// bytes with the stored type, nosniff, a sandboxing CSP, long caching and an ETag (304 on a match). A
// hostile name is reduced to a harmless base name; the same name twice never overwrites.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PNG } from './fixtures.js';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h.stop());

async function upload(name: string, type: string, bits: Buffer) {
  return h.call('metaWeblog.newMediaObject', ['0', 'ada', ada.token, { name, type, bits }]);
}

describe('newMediaObject', () => {
  it('returns a url that serves the same bytes with nosniff', async () => {
    const res = await upload('dot.png', 'image/png', PNG);
    expect(res.fault).toBeUndefined();
    const { url, id } = res.value as { url: string; id: string };
    expect(typeof id).toBe('string');
    const site = await h.siteOf(ada.id);
    const year = new Date().getUTCFullYear();
    expect(url).toMatch(new RegExp(`^${h.url}/media/${site._id}/${year}/[A-Za-z0-9]{16}-dot\\.png$`));

    const got = await h.get(new URL(url).pathname);
    expect(got.statusCode).toBe(200);
    expect(got.body.equals(PNG)).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(got.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(got.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    const again = await h.get(new URL(url).pathname, { 'if-none-match': got.headers.etag! });
    expect(again.statusCode).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('an SVG is served sandboxed', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const res = await upload('x.svg', 'image/svg+xml', svg);
    const got = await h.get(new URL((res.value as any).url).pathname);
    expect(got.headers['content-type']).toBe('image/svg+xml');
    expect(got.headers['content-security-policy']).toContain('sandbox');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
  });

  it('stores "../../etc/passwd" as a harmless base name, and a repeated name never overwrites', async () => {
    const a = (await upload('../../etc/passwd', 'image/png', PNG)).value as { url: string };
    expect(a.url).toMatch(/\/[A-Za-z0-9]{16}-passwd$/);
    const b = (await upload('..\\..\\windows\\win.ini', 'image/png', PNG)).value as { url: string };
    expect(b.url).toMatch(/\/[A-Za-z0-9]{16}-win\.ini$/);
    const c = (await upload('passwd', 'image/png', PNG)).value as { url: string };
    expect(c.url).not.toBe(a.url);
    expect((await h.get(new URL(a.url).pathname)).statusCode).toBe(200);
    expect((await h.get(new URL(c.url).pathname)).statusCode).toBe(200);
  });

  it('unknown media → 404', async () => {
    const site = await h.siteOf(ada.id);
    expect((await h.get(`/media/${site._id}/2026/nothing-here.png`)).statusCode).toBe(404);
    expect((await h.get('/media/x/2026/a.png')).statusCode).toBe(404);
  });
});
