// What identity's parser thread runs (libs/fetch ParserThread, docs/security.md "Parsing fetched
// documents"): the microformats parse of a client's HTML page (its h-app and rel=redirect_uri links),
// a whole-tree parse that a hostile page can make cost seconds, so never on the event loop. Pure:
// plain data in and out.
import { mf2 } from 'microformats-parser';
import { capHtmlNesting } from '@murmur/fetch';
import { cleanName, displayableLogo, NOTHING, type ClientInfo, type ClientPage } from './client-info.js';
import { sameUrl } from './indieauth-urls.js';

/** microformats-parser gives up on documents whose body is empty; one element in it is enough. */
function parseMicroformats(body: string, base: string): ReturnType<typeof mf2> | null {
  // Deep nesting costs the parser's tree building depth²: capped first (libs/fetch capHtmlNesting).
  const capped = capHtmlNesting(body);
  for (const html of [capped, `${capped}<p></p>`]) {
    try {
      return mf2(html, { baseUrl: base });
    } catch {
      /* try the padded document, then give up */
    }
  }
  return null;
}

function firstText(values: unknown[] | undefined): string | null {
  const v = values?.[0];
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'value' in v && typeof v.value === 'string') return v.value;
  return null;
}

/** The name, logo and redirect URLs an HTML client page publishes. */
export function readClientPage(page: ClientPage): ClientInfo {
  const parsed = parseMicroformats(page.body, page.base);
  if (!parsed) return NOTHING;
  const apps = parsed.items.filter((item) => item.type?.some((t) => t === 'h-app' || t === 'h-x-app'));
  // Prefer the h-app that says it is this client; a page may describe several apps.
  const app =
    apps.find(
      (a) => firstText(a.properties.url) !== null && sameUrl(firstText(a.properties.url)!, page.clientId),
    ) ?? apps[0];
  return {
    name: app ? cleanName(firstText(app.properties.name)) : null,
    logo: app ? displayableLogo(firstText(app.properties.logo) ?? firstText(app.properties.photo)) : null,
    redirectUris: parsed.rels.redirect_uri ?? [],
  };
}
