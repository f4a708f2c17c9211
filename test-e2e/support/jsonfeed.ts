// The one JSON Feed validator of the test suites (feeds, webmention, archive, publishing): the jsonfeed-schema package's schemas for version 1 and
// 1.1 through ajv. Both refuse unknown keys except `_`-prefixed ones, numeric ids and null members.
// `uri` is checked by the WHATWG parser and `date-time` as RFC 3339.
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
const schemaV1 = require('jsonfeed-schema/schema-v1.json') as object;
const schemaV11 = require('jsonfeed-schema/schema-v1.1.json') as object;

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat(
  'date-time',
  (s: string) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) &&
    !Number.isNaN(Date.parse(s)),
);
const validateV1 = ajv.compile(schemaV1);
const validateV11 = ajv.compile(schemaV11);

export const V1 = 'https://jsonfeed.org/version/1';
export const V1_1 = 'https://jsonfeed.org/version/1.1';

/** Schema errors of a feed, validated against the schema its `version` names ([] when valid). */
export function jsonFeedErrors(feed: unknown): unknown[] {
  const version = (feed as { version?: unknown } | null)?.version;
  const validate = version === V1 ? validateV1 : version === V1_1 ? validateV11 : undefined;
  if (!validate) return [`unknown version ${String(version)}`];
  return validate(feed) ? [] : [...(validate.errors ?? [])];
}

/** Throws when `feed` is not a valid JSON Feed of `version`; every feed a test reads goes through this. */
export function assertJsonFeed(feed: unknown, version: typeof V1 | typeof V1_1): void {
  const actual = (feed as { version?: unknown } | null)?.version;
  if (actual !== version) throw new Error(`expected a JSON Feed ${version}, got version ${String(actual)}`);
  const errors = jsonFeedErrors(feed);
  if (errors.length > 0) throw new Error(`invalid JSON Feed ${version}: ${JSON.stringify(errors, null, 1)}`);
  // Beyond the schema: our dates are always in the offset form, and 1.1 items carry `author` as a copy
  // of the first of `authors` (version 1 items carry `author` only — the v1 schema refuses `authors`).
  for (const item of (feed as { items: Record<string, unknown>[] }).items) {
    for (const key of ['date_published', 'date_modified']) {
      const value = item[key];
      if (value !== undefined && !(typeof value === 'string' && OFFSET_TIME.test(value)))
        throw new Error(`item ${String(item.id)}: ${key} ${String(value)} is not in the +00:00 form`);
    }
    if (version === V1_1 && item.authors !== undefined) {
      const first = (item.authors as unknown[])[0];
      if (JSON.stringify(item.author) !== JSON.stringify(first))
        throw new Error(`item ${String(item.id)}: author is not a copy of authors[0]`);
    }
  }
}

const OFFSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
