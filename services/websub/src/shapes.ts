// Wire shapes of the websub service. The hub answers 202 with an empty body or a one-line text reason
// (docs/api/websub.md), so it has no JSON response; what it names on the wire is the set of hub modes
// and the headers of a delivery.
export const HUB_MODES = ['subscribe', 'unsubscribe', 'publish'] as const;
export type HubMode = (typeof HUB_MODES)[number];

/** Headers every delivery carries (plus `X-Hub-Signature` when the subscription has a secret). */
export const DELIVERY_HEADERS = ['content-type', 'link'] as const;
