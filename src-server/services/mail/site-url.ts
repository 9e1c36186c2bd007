import { publicLinkBase } from '../../../shared/public-links.ts';
import type { AppDeps } from '../../deps.ts';

/** The base of links in mail sent without a request at hand: PUBLIC_URL's origin, or the local server. */
export function siteUrl(deps: Pick<AppDeps, 'env'>): string {
  return publicLinkBase(deps.env.PUBLIC_URL, `http://localhost:${deps.env.PORT}`);
}
