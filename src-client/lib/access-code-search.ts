import { definedOnly, optionalString } from './search-params.ts';

/**
 * The longest access code (shared/discount-schemas.ts MAX_CODE_LENGTH, checked equal by its test);
 * repeated here because route definitions load with every page and that module brings zod.
 */
export const ACCESS_CODE_MAX_LENGTH = 40;

/** `?code=` on the event link, the ticket selection and the checkout: the buyer's access code (ADR 0038). */
export interface AccessCodeSearch {
  code?: string;
}

/**
 * The routes' `validateSearch` for it: a code that cannot be one (not text, empty, too long) is dropped,
 * so the page loads with the public ticket types instead of failing. The server decides what it unlocks.
 */
export function parseAccessCodeSearch(search: Record<string, unknown>): AccessCodeSearch {
  const code = optionalString(search.code)?.trim();
  return definedOnly({ code: code && code.length <= ACCESS_CODE_MAX_LENGTH ? code : undefined });
}
