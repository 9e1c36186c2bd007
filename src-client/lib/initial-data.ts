import type { RouterInputs, RouterOutputs, TrpcUtils } from './trpc.ts';

/** The element the server writes the first screen's data into (src-server/http/page-shell.ts). */
const INITIAL_DATA_ID = 'initial-data';

type InitialQuery =
  | { path: 'events.home'; input: RouterInputs['events']['home']; data: RouterOutputs['events']['home'] }
  | { path: 'events.byId'; input: RouterInputs['events']['byId']; data: RouterOutputs['events']['byId'] };

/**
 * Puts the answers the server sent inside the page into the query cache, before the router's first
 * load, so the first screen's loaders find their data there and the page renders from the first
 * response (issue 39). Each answer goes in under the exact input it was asked with: one the page will
 * not ask for (another city) just sits unused, and the page fetches what it needs as before.
 */
export function primeFromPage(utils: TrpcUtils, doc: Document = document): void {
  const text = doc.getElementById(INITIAL_DATA_ID)?.textContent;
  if (!text) return;
  let queries: InitialQuery[];
  try {
    queries = JSON.parse(text) as InitialQuery[];
  } catch {
    return;
  }
  if (!Array.isArray(queries)) return;
  for (const query of queries) {
    if (query.path === 'events.home') utils.events.home.setData(query.input, query.data);
    else if (query.path === 'events.byId') utils.events.byId.setData(query.input, query.data);
  }
}
