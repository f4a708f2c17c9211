// Dates: a dateTime.iso8601 without an offset is that UTC time; an offset is converted; the basic and
// extended forms, strings as well as dateTime values, are accepted; a past date backdates a published
// post; every date we send back is the basic UTC form. A date that is no date → −32602.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';

let h: Harness;
let ada: Account;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
});
afterAll(() => h.stop());

function dateParam(text: string, typed = true): string {
  const value = typed ? `<dateTime.iso8601>${text}</dateTime.iso8601>` : `<string>${text}</string>`;
  return `<?xml version="1.0"?><methodCall><methodName>metaWeblog.newPost</methodName><params>
<param><value><string>0</string></value></param><param><value>ada</value></param><param><value>${ada.token}</value></param>
<param><value><struct><member><name>description</name><value>dated</value></member>
<member><name>dateCreated</name><value>${value}</value></member></struct></value></param></params></methodCall>`;
}

async function storedDate(text: string, typed = true): Promise<string> {
  const res = await h.postXml(dateParam(text, typed));
  expect(res.fault).toBeUndefined();
  const got = await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token]);
  const m = /<name>dateCreated<\/name><value><dateTime\.iso8601>([^<]+)</.exec(got.text);
  return m![1]!;
}

describe('post dates', () => {
  it.each([
    ['20240102T08:30:00', true, '20240102T08:30:00'],
    ['20240102T083000', true, '20240102T08:30:00'],
    ['2024-01-02T08:30:00', true, '20240102T08:30:00'],
    ['2024-01-02T08:30:00Z', true, '20240102T08:30:00'],
    ['2024-01-02T08:30:00+01:00', true, '20240102T07:30:00'],
    ['20240102T08:30:00+0100', true, '20240102T07:30:00'],
    ['2024-01-02T08:30:00-05:00', false, '20240102T13:30:00'],
  ])('%s (typed: %s) is stored as %s UTC', async (given, typed, expected) => {
    expect(await storedDate(given, typed)).toBe(expected);
  });

  it('a past date backdates a published post and its permalink', async () => {
    const res = await h.postXml(dateParam('20200229T12:00:00'));
    const got = await h.call('metaWeblog.getPost', [res.value as number, 'ada', ada.token]);
    expect(got.value.post_status).toBe('published');
    expect(got.value.permalink).toContain('/sites/ada/2020/02/29/dated');
    expect(got.text).toMatch(/<name>date_modified<\/name><value><dateTime\.iso8601>\d{8}T\d{2}:\d{2}:\d{2}</);
  });

  it.each(['yesterday', '2024-13-01T00:00:00', '2024-02-30T00:00:00', '20240102T25:00:00'])(
    '%s → −32602 and nothing stored',
    async (bad) => {
      const before = await h.counts();
      const res = await h.postXml(dateParam(bad, bad !== 'yesterday'));
      expect(res.fault?.faultCode).toBe(-32602);
      expect(await h.counts()).toEqual(before);
    },
  );
});
