// `@bob` in a post names user bob in the published event (and links to bob's site in the HTML);
// `@nobody` (no such user), e-mail addresses and mentions inside links name no one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Account, type Harness } from './harness.js';
import { eventually } from '@murmur/testing';
import { recordPostEvents, type PostEventLog } from './events.js';

let h: Harness;
let ada: Account;
let bob: Account;
let log: PostEventLog;

beforeAll(async () => {
  h = await startHarness();
  ada = await h.createUser('ada');
  bob = await h.createUser('bob');
  await h.siteOf(bob.id);
  log = await recordPostEvents(h.bus);
});
afterAll(async () => {
  await log.stop();
  await h.stop();
});

async function publishedEvent(description: string) {
  const res = await h.call('metaWeblog.newPost', ['0', 'ada', ada.token, { description }]);
  const id = res.value as number;
  return eventually(async () => log.of(id).find((e) => e.verb === 'published')?.envelope.data);
}

describe('mentions', () => {
  it('@bob in plain text → a mention of bob and a link to his site', async () => {
    const data = await publishedEvent('Hello @bob and @nobody, mail ada@example.com');
    expect(data.mentions).toEqual([{ userId: bob.id, username: 'bob' }]);
    expect(data.contentHtml).toContain(
      `<a href="${h.url}/sites/bob/" rel="nofollow noopener noreferrer">@bob</a>`,
    );
    expect(data.contentHtml).toContain('@nobody');
    expect(data.contentHtml).not.toContain('/sites/nobody/');
    expect(data.contentText).toBe('Hello @bob and @nobody, mail ada@example.com');
  });

  it('@Bob in HTML is found too; a mention inside a link is left alone', async () => {
    const data = await publishedEvent('<p>Thanks <b>@Bob</b>! <a href="https://x.example/">@bob</a></p>');
    expect(data.mentions).toEqual([{ userId: bob.id, username: 'bob' }]);
    expect(data.contentHtml).toContain(
      `<b><a href="${h.url}/sites/bob/" rel="nofollow noopener noreferrer">@Bob</a></b>`,
    );
    expect(data.contentHtml).toContain(
      '<a href="https://x.example/" rel="nofollow noopener noreferrer">@bob</a>',
    );
  });

  it('@nobody alone → no mentions', async () => {
    const data = await publishedEvent('Is @nobody there?');
    expect(data.mentions).toEqual([]);
  });
});
