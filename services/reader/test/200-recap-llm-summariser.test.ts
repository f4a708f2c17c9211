// The optional summariser: with READER_LLM_URL set, recap leads come from an OpenAI-compatible
// endpoint (with the operator's key, nothing else); when it fails, the extractive recap is used.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { reader } from '@murmur/contracts';
import { startFeedServer, type FeedServer } from './feed-server.js';
import { startReader, type Harness, type TestUser } from './harness.js';

let h: Harness;
let feeds: FeedServer;
let llm: FeedServer;
let ann: TestUser;
let ids: number[];

beforeAll(async () => {
  feeds = await startFeedServer();
  llm = await startFeedServer({ fixtures: false });
  h = await startReader({
    READER_LLM_URL: llm.url('/v1/chat/completions'),
    READER_LLM_MODEL: 'tiny-model',
    READER_LLM_API_KEY: 'sk-operator-key',
  });
  ann = h.identity.addUser('ann');
  await h.subscribe(ann, feeds.url('/rss2.xml'));
  ids = (await h.get(ann, '/feeds/v2/entries.json')).json().map((e: { id: number }) => e.id);
});
afterAll(async () => {
  await h.stop();
  await feeds.close();
  await llm.close();
});

async function buildRecap(body: number[], reset = false) {
  expect((await h.req(ann, 'POST', `/feeds/recap${reset ? '?reset=1' : ''}`, body)).statusCode).toBe(202);
  await h.idle();
  const res = await h.req(ann, 'POST', '/feeds/recap', body);
  expect(res.statusCode).toBe(200);
  return res.body;
}

describe('summariser', () => {
  test('identity can learn over the bus that recaps use AI (for the account’s is_using_ai)', async () => {
    expect(await h.bus.request(reader.recapCapabilities, {})).toEqual({ usingAi: true });
  });

  test('its summaries replace the lead sentences, escaped; the request carries the key and model', async () => {
    llm.set('/v1/chat/completions', ({ headers }) => {
      expect(headers.authorization).toBe('Bearer sk-operator-key');
      expect(headers.cookie).toBeUndefined();
      const summaries = ids.map((id) => ({ id, summary: `Summary <${id}> by the model.` }));
      return {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          choices: [{ message: { role: 'assistant', content: JSON.stringify({ summaries }) } }],
        }),
      };
    });
    const html = await buildRecap(ids);
    expect(llm.hits('/v1/chat/completions')).toBe(1);
    expect(html).toContain(`Summary &#60;${ids[0]}&#62; by the model.`);
    expect(html).not.toContain('First episode. It is about feeds.');
    const sent = llm.requests[0]!;
    expect(sent.headers['content-type']).toBe('application/json');
    const body = JSON.parse(sent.body) as {
      model: string;
      messages: Array<{ role: string; content: string }>;
    };
    expect(body.model).toBe('tiny-model');
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[1]!.content).toContain('Release notes');
  });

  test('an error from the endpoint falls back to the extractive recap', async () => {
    llm.set('/v1/chat/completions', { status: 500, body: 'overloaded' });
    const html = await buildRecap(ids, true);
    expect(html).toContain('First episode. It is about feeds.');
    expect(html).toContain('class="reading-recap"');
  });

  test('a reply that is not the expected JSON falls back too', async () => {
    llm.set('/v1/chat/completions', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ choices: [{ message: { content: 'Sure! Here is a summary.' } }] }),
    });
    const html = await buildRecap(ids, true);
    expect(html).toContain('First episode. It is about feeds.');
  });
});
