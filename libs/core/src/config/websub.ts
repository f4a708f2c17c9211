// The WebSub hub's URL as the services that advertise it read it (docs/api/websub.md, "Discovery"):
// publishing's feed.xml and feed.json and feeds' public JSON Feeds name it, and the websub service
// names itself by it in every delivery.
import { z } from 'zod';

/**
 * `WEBSUB_HUB_URL`: unset → `{PUBLIC_URL}/websub`; `none` → no hub advertised. (An empty value is unset,
 * as for every variable: loadConfig ignores blank values.)
 */
export const websubHubUrlVar = () =>
  z
    .string()
    .trim()
    .refine((v) => v === 'none' || /^https?:\/\/\S+$/.test(v), { error: 'must be an http(s) URL or none' })
    .optional();

/** The hub the feeds advertise, or undefined when WEBSUB_HUB_URL is `none`. */
export function advertisedHubUrl(config: {
  WEBSUB_HUB_URL?: string | undefined;
  PUBLIC_URL: string;
}): string | undefined {
  if (config.WEBSUB_HUB_URL === undefined) return `${config.PUBLIC_URL}/websub`;
  return config.WEBSUB_HUB_URL === 'none' ? undefined : config.WEBSUB_HUB_URL;
}

/** `Link` header value naming the hub and the topic itself (RFC 8288; the WebSub recommendation, 4). */
export function hubLinkHeader(hubUrl: string, selfUrl: string): string {
  return `<${hubUrl}>; rel="hub", <${selfUrl}>; rel="self"`;
}
