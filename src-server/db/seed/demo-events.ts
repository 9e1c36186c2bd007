import type { EventDocument } from '../../services/catalog/insert-event.ts';

/** Demo catalogue, dated relative to `now`. Filled in by the storefront work. */
export function demoEvents(_now: Date): EventDocument[] {
  return [];
}
