// Import files as exporters write them: JSON Feeds (1 and 1.1), blog-archive ZIPs (written here
// byte by byte, so a test can also write the hostile ones: `..` paths, lying sizes, bombs) and
// WordPress WXR exports.
import { crc32, deflateRawSync } from 'node:zlib';

export const V1 = 'https://jsonfeed.org/version/1';
export const V1_1 = 'https://jsonfeed.org/version/1.1';

export interface FeedItem {
  id?: string | number;
  url?: string;
  title?: string;
  content_html?: string;
  content_text?: string;
  date_published?: string;
  date_modified?: string;
  tags?: string[];
  image?: string;
}

export function jsonFeed(items: FeedItem[], version = V1_1, title = 'Old blog'): string {
  return JSON.stringify({ version, title, home_page_url: 'https://old.example/', items });
}

/** `count` posts, one a day from `start` (oldest is `p0`), each with a title and a paragraph. */
export function dailyPosts(count: number, start = Date.UTC(2015, 0, 1, 9)): FeedItem[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `p${i}`,
    url: `https://old.example/posts/${i}`,
    title: `Post number ${i}`,
    content_html: `<p>Entry ${i} of the diary.</p>`,
    date_published: new Date(start + i * 86_400_000).toISOString(),
  }));
}

// ---- ZIP -----------------------------------------------------------------------------------------

export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** Default deflate. */
  method?: 'store' | 'deflate';
  /** The uncompressed size written in the headers (default: the real one). */
  declaredSize?: number;
  /** Unix mode (e.g. 0o120777 for a symbolic link). */
  mode?: number;
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8');
    const deflate = (e.method ?? 'deflate') === 'deflate';
    const packed = deflate ? deflateRawSync(data) : data;
    const crc = crc32(data);
    const size = e.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * A blog-archive ZIP as exporters lay it out: `index.html` (an h-feed), `feed.json` with the Markdown
 * source in `content_text` and the rendered HTML in `content_html`, and an `uploads/` folder.
 */
export function blogArchiveZip(top = ''): Buffer {
  const feed = {
    version: V1,
    title: 'Exported blog',
    items: [
      {
        id: 101,
        url: 'https://old.example/2018/05/01/markdown.html',
        title: 'Markdown inside',
        content_text: '**Bold** move and a [link](/about)\n\n![photo](uploads/2018/cat.jpg)',
        content_html:
          '<p><strong>Bold</strong> move and a <a href="/about">link</a></p><p><img src="uploads/2018/cat.jpg" alt="photo"></p>',
        date_published: '2018-05-01T10:00:00+02:00',
        tags: ['life'],
      },
      {
        id: 102,
        url: 'https://old.example/2018/06/02/plain.html',
        content_text: 'A note with no HTML <b>at all</b>.\n\nSecond paragraph.',
        date_published: '2018-06-02T08:00:00Z',
      },
    ],
  };
  const p = top ? `${top}/` : '';
  return zip([
    ...(top ? [{ name: `${top}/`, method: 'store' as const }] : []),
    { name: `${p}index.html`, data: '<div class="h-feed"><article class="h-entry">x</article></div>' },
    { name: `${p}feed.json`, data: JSON.stringify(feed) },
    { name: `${p}uploads/`, method: 'store' },
    {
      name: `${p}uploads/2018/cat.jpg`,
      data: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]),
      method: 'store',
    },
  ]);
}

// ---- WXR -----------------------------------------------------------------------------------------

export interface WxrItem {
  id: number;
  title: string;
  type?: string;
  status?: string;
  content?: string;
  dateGmt?: string;
  link?: string;
  categories?: { domain: string; name: string }[];
}

export function wxr(items: WxrItem[], options: { prolog?: string; encoding?: string } = {}): string {
  const body = items
    .map(
      (i) => `
  <item>
    <title>${i.title}</title>
    <link>${i.link ?? `https://old.example/?p=${i.id}`}</link>
    <pubDate>Tue, 02 Apr 2019 09:15:00 +0000</pubDate>
    <dc:creator><![CDATA[ada]]></dc:creator>
    <guid isPermaLink="false">https://old.example/?p=${i.id}</guid>
    <content:encoded><![CDATA[${i.content ?? `<p>Body of ${i.id}</p>`}]]></content:encoded>
    <excerpt:encoded><![CDATA[]]></excerpt:encoded>
    <wp:post_id>${i.id}</wp:post_id>
    <wp:post_date><![CDATA[2019-04-02 11:15:00]]></wp:post_date>
    <wp:post_date_gmt><![CDATA[${i.dateGmt ?? '2019-04-02 09:15:00'}]]></wp:post_date_gmt>
    <wp:status><![CDATA[${i.status ?? 'publish'}]]></wp:status>
    <wp:post_type><![CDATA[${i.type ?? 'post'}]]></wp:post_type>
${(i.categories ?? []).map((c) => `    <category domain="${c.domain}" nicename="x"><![CDATA[${c.name}]]></category>`).join('\n')}
  </item>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="${options.encoding ?? 'UTF-8'}" ?>
${options.prolog ?? ''}<rss version="2.0"
  xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
  xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
  <title>Old WordPress blog</title>
  <link>https://old.example</link>
  <wp:wxr_version>1.2</wp:wxr_version>${body}
</channel>
</rss>
`;
}

/** A WXR export as WordPress writes one: published posts beside drafts, pages, attachments and menu items. */
export function wordpressExport(): string {
  return wxr([
    {
      id: 11,
      title: 'Spring',
      content: '<p>First blossoms. <img src="/wp-content/uploads/2019/04/b.jpg"></p>',
      categories: [
        { domain: 'category', name: 'garden' },
        { domain: 'post_tag', name: 'flowers' },
      ],
    },
    { id: 12, title: 'Autumn &amp; leaves', dateGmt: '2019-10-05 07:00:00' },
    { id: 13, title: 'Unfinished', status: 'draft', dateGmt: '0000-00-00 00:00:00' },
    { id: 14, title: 'About me', type: 'page' },
    { id: 15, title: 'b.jpg', type: 'attachment', status: 'inherit' },
    { id: 16, title: 'Home', type: 'nav_menu_item' },
  ]);
}
