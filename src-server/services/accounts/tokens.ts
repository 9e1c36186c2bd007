import { generateSessionToken, sessionIdOf } from './sessions.ts';

/**
 * One-time link tokens (password reset, e-mail verification) use the session token recipe: 160 random
 * bits in the link, only the SHA-256 in the database, so a leaked database cannot be turned into links.
 */
export function newLinkToken(): { token: string; id: string } {
  const token = generateSessionToken();
  return { token, id: sessionIdOf(token) };
}

export const linkTokenId = sessionIdOf;
