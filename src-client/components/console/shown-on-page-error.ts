/**
 * An edit's error that the page already shows where it belongs: the event editor's stale-version
 * banner, which carries the Reload button. A form that catches it leaves it out of its own error line,
 * so the organiser reads the message once, next to what to do about it.
 */
export class ShownOnPageError extends Error {}
