// Page methods: newPage returns an <int>; getPages lists it with is_navigation; getPage, editPage (members
// present replace, the URL stays) and deletePage (true, then 404). Pages are served at {site}/{slug}/, and
// navigation pages appear in the site's navigation. Another user's page is 404.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;
let bob: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
});
afterAll(() => h.stop());

describe('pages', () => {
  it('new, list, get, edit, delete', async () => {
    const created = await h.call('service.newPage', [
      '0',
      'ada',
      ada.token,
      { title: 'About me', description: 'I write *things*.', is_navigation: true },
    ]);
    expect(created.text).toMatch(/<int>\d+<\/int>/);
    const id = created.value as number;

    const list = await h.call('service.getPages', ['0', 'ada', ada.token]);
    expect(list.value).toHaveLength(1);
    const page = (list.value as any[])[0];
    expect(page).toMatchObject({
      id,
      title: 'About me',
      description: 'I write *things*.',
      permalink: `${h.url}/sites/ada/about-me/`,
      is_navigation: true,
      is_template: false,
    });
    expect(page.date_created).toBeInstanceOf(Date);
    expect(page.date_modified).toBeInstanceOf(Date);

    const web = await h.get('/sites/ada/about-me/');
    expect(web.statusCode).toBe(200);
    expect(web.text).toContain('I write *things*.');
    expect((await h.get('/sites/ada/')).text).toContain('href="' + `${h.url}/sites/ada/about-me/` + '"');

    const edit = await h.call('service.editPage', [
      String(id),
      'ada',
      ada.token,
      { description: '<p>Now with <b>HTML</b><script>x()</script></p>', is_navigation: false },
    ]);
    expect(edit.value).toBe(true);
    const got = (await h.call('service.getPage', [id, 'ada', ada.token])).value;
    expect(got).toMatchObject({
      id,
      title: 'About me',
      description: '<p>Now with <b>HTML</b></p>',
      is_navigation: false,
    });
    expect(got.permalink).toBe(page.permalink);

    expect((await h.call('service.getPage', [id, 'bob', bob.token])).fault?.faultCode).toBe(404);
    expect((await h.call('service.editPage', [id, 'bob', bob.token, { title: 'x' }])).fault?.faultCode).toBe(
      404,
    );
    expect((await h.call('service.deletePage', [id, 'bob', bob.token])).fault?.faultCode).toBe(404);

    expect((await h.call('service.deletePage', [id, 'ada', ada.token])).value).toBe(true);
    expect((await h.call('service.getPage', [id, 'ada', ada.token])).fault?.faultCode).toBe(404);
    expect((await h.get('/sites/ada/about-me/')).statusCode).toBe(404);
  });

  it('getPages honours count and offset; two pages with one title get distinct slugs', async () => {
    for (const title of ['Same', 'Same', 'Third'])
      await h.call('service.newPage', ['0', 'ada', ada.token, { title }]);
    const all = (await h.call('service.getPages', ['0', 'ada', ada.token, 10, 0])).value as any[];
    expect(all.map((p) => p.title)).toEqual(['Third', 'Same', 'Same']);
    expect(new Set(all.map((p) => p.permalink)).size).toBe(3);
    const second = (await h.call('service.getPages', ['0', 'ada', ada.token, 1, 1])).value as any[];
    expect(second.map((p) => p.title)).toEqual(['Same']);
  });

  it('newPage without a title → −32602, nothing stored', async () => {
    const before = await h.counts();
    expect(
      (await h.call('service.newPage', ['0', 'ada', ada.token, { description: 'untitled' }])).fault
        ?.faultCode,
    ).toBe(-32602);
    expect(await h.counts()).toEqual(before);
  });
});
