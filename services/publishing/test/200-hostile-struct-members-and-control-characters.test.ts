// Struct members are names, never object keys: `__proto__`, `constructor` and unknown members are ignored.
// Characters XML 1.0 cannot carry (a U+0001 sent as a character reference) are stripped, so every answer
// stays valid XML. <nil/> counts as absent; the last of two same-named members wins.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h.stop());

const call = (members: string) =>
  `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>` +
  `<param><value>0</value></param><param><value>ada</value></param><param><value>${ada.token}</value></param>` +
  `<param><value><struct>${members}</struct></value></param></params></methodCall>`;
const member = (name: string, value: string) =>
  `<member><name>${name}</name><value>${value}</value></member>`;

describe('struct members', () => {
  it('__proto__ and constructor are ignored members, not object keys', async () => {
    const res = await h.postXml(
      call(
        member(
          '__proto__',
          '<struct>' + member('title', 'polluted') + member('isAdmin', '<boolean>1</boolean>') + '</struct>',
        ) +
          member(
            'constructor',
            '<struct>' + member('prototype', '<struct>' + member('x', 'y') + '</struct>') + '</struct>',
          ) +
          member('description', 'clean') +
          member('mt_keywords', 'ignored') +
          member('wp_slug', 'ignored-too'),
      ),
    );
    expect(res.fault).toBeUndefined();
    const got = await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token]);
    expect(got.value.title).toBe('');
    expect(got.value.description).toBe('clean');
    expect(({} as any).isAdmin).toBeUndefined();
    expect(({} as any).x).toBeUndefined();
  });

  it('<nil/> is absent and a repeated member: the last one wins', async () => {
    const res = await h.postXml(
      call(
        member('title', '<nil/>') +
          member('description', 'first') +
          member('description', 'second') +
          member('post_status', '<nil/>'),
      ),
    );
    const got = await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token]);
    expect(got.value).toMatchObject({ title: '', description: 'second', post_status: 'published' });
  });
});

describe('control characters', () => {
  it('a body with U+0001 comes back without it, as valid XML', async () => {
    const res = await h.postXml(
      call(member('title', 'A&#1;B') + member('description', 'one&#x1;two&#x0B;three')),
    );
    expect(res.fault).toBeUndefined();
    const got = await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token]);
    expect(got.fault).toBeUndefined();
    expect(got.value.description).toBe('onetwothree');
    expect(got.value.title).toBe('AB');
    expect(got.text).not.toContain('\u0001');
    expect(got.text).not.toContain('\u000B');
    expect(got.text).not.toMatch(/&#x?0*1;/);
  });
});
