import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger, redactUrl } from '../../src/log/index.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, raw, destination };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('redactUrl', () => {
  it.each([
    ['/x?token=abc&page=2', '/x?token=***&page=2'],
    [
      '/indieauth/token?code=c0de&code_verifier=v&client_id=https%3A%2F%2Fa',
      '/indieauth/token?code=***&code_verifier=***&client_id=https%3A%2F%2Fa',
    ],
    [
      '/a?access_token=t&refresh_token=r&identity_token=i&csrf=c&bits=b&password=p',
      '/a?access_token=***&refresh_token=***&identity_token=***&csrf=***&bits=***&password=***',
    ],
    ['/a?%74oken=x&code%5B%5D=y', '/a?%74oken=***&code%5B%5D=***'],
    ['/feeds/ada/bookmarks/Zk3abc_DEF.json', '/feeds/ada/bookmarks/***.json'],
    ['/feeds/ada/readlater/Zk3abc.json?page=2', '/feeds/ada/readlater/***.json?page=2'],
    ['/feeds/ada.json?page=2', '/feeds/ada.json?page=2'],
    [
      '/users/push/register?device_token=a3f5c9&push_env=prod',
      '/users/push/register?device_token=***&push_env=prod',
    ],
    ['fetch of https://b.example/cb?code=1 failed', 'fetch of https://b.example/cb?code=*** failed'],
  ])('%s → %s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

describe('createLogger', () => {
  it('writes JSON lines naming the service', async () => {
    const { lines, destination } = capture();
    const log = createLogger({ service: 'reader', level: 'info', destination });
    log.info({ feedId: 3 }, 'polled');
    log.debug('hidden at info');
    await flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ service: 'reader', level: 'info', msg: 'polled', feedId: 3 });
  });

  it('never writes tokens, cookies or queue tokens', async () => {
    const { raw, destination } = capture();
    const log = createLogger({ service: 'identity', destination });
    const request = {
      method: 'GET',
      url: '/feeds/ada/bookmarks/SECRETQUEUE.json?access_token=SECRET1',
      ip: '127.0.0.1',
      headers: { authorization: 'Bearer SECRET2', cookie: 'sid=SECRET3' },
    };
    log.info({ req: request }, 'request completed');
    log.info(
      { headers: request.headers, nested: { token: 'SECRET4', list: [{ code: 'SECRET5' }] } },
      'objects',
    );
    log.info({ url: 'https://x.example/cb?code=SECRET6' }, 'redirect to https://x.example/cb?token=SECRET7');
    log.child({ requestId: 'r1' }).warn({ 'set-cookie': ['sid=SECRET8'] }, 'child');
    await flush();
    const text = raw.join('\n');
    expect(text).not.toMatch(/SECRET\d|SECRETQUEUE/);
    expect(text).toContain('/feeds/ada/bookmarks/***.json?access_token=***');
    expect(raw).toHaveLength(4);
  });

  it('masks credentials in headers held by a class instance and in a child logger’s bindings', async () => {
    const { raw, destination } = capture();
    const log = createLogger({ service: 'identity', destination });
    // A header container that is not a plain object (the redaction walk leaves class instances alone).
    class Carried {
      authorization = 'Bearer SECRET1';
      cookie = 'sid=SECRET2';
      accept = 'application/json';
    }
    log.info({ headers: new Carried() }, 'outbound');
    log.child({ headers: { authorization: 'Bearer SECRET3', cookie: 'sid=SECRET4' } }).info('bound');
    await flush();
    const text = raw.join('\n');
    expect(text).not.toMatch(/SECRET\d/);
    expect(text).toContain('"accept":"application/json"');
    expect(raw).toHaveLength(2);
  });

  it('leaves the caller’s objects untouched', async () => {
    const { destination } = capture();
    const log = createLogger({ service: 's', destination });
    const payload = { token: 'abc', inner: { url: '/x?token=abc' } };
    log.info(payload, 'x');
    await flush();
    expect(payload).toEqual({ token: 'abc', inner: { url: '/x?token=abc' } });
  });

  it('logs errors with stack and redacted message, keeping their code', async () => {
    const { lines, destination } = capture();
    const log = createLogger({ service: 's', destination });
    const err = Object.assign(new Error('GET /x?token=abc failed'), { code: 'ECONNREFUSED' });
    log.error({ err }, 'boom');
    await flush();
    const logged = lines[0]!.err as Record<string, unknown>;
    expect(logged.message).toBe('GET /x?token=*** failed');
    expect(logged.code).toBe('ECONNREFUSED');
    expect(String(logged.stack)).toContain('Error: GET /x?token=*** failed');
    expect(JSON.stringify(lines[0])).not.toContain('abc');
  });
});
