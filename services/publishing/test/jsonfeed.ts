// JSON Feed validation with ajv and the jsonfeed-schema package (docs/api/conventions.md, "JSON Feed"), its two formats checked
// strictly: `uri` by the WHATWG parser, `date-time` as RFC 3339.
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
const schemaV11 = require('jsonfeed-schema/schema-v1.1.json') as object;

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat(
  'date-time',
  (s: string) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) &&
    !Number.isNaN(Date.parse(s)),
);
const validateV11 = ajv.compile(schemaV11);

/** Schema errors of a JSON Feed 1.1 document ([] when valid). */
export function jsonFeedErrors(feed: unknown): unknown[] {
  return validateV11(feed) ? [] : [...(validateV11.errors ?? [])];
}
