// JSON Feed validation for tests: the published JSON Schemas (jsonfeed-schema) through ajv.
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('uri', (value: string) => URL.canParse(value));
ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
ajv.addFormat('email', (value: string) => /^[^@\s]+@[^@\s]+$/.test(value));
const validateV11 = ajv.compile(require('jsonfeed-schema/v1.1') as object);

/** The schema's error list; [] when the feed is valid JSON Feed 1.1. */
export function jsonFeed11Errors(feed: unknown): string[] {
  if (validateV11(feed)) return [];
  return (validateV11.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
