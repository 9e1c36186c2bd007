import { messageOf } from '../../lib/auth.ts';

/**
 * An edit's error that the page already shows where it belongs: the event editor's stale-version
 * banner, which carries the Reload button. A form that catches it leaves it out of its own error line,
 * so the organiser reads the message once, next to what to do about it.
 */
export class ShownOnPageError extends Error {}

/** What a form's own error line says for a failed save: nothing when the page shows it already. */
export function formErrorOf(error: unknown): string | null {
  return error instanceof ShownOnPageError ? null : messageOf(error);
}
