/**
 * The page to return to after signing in, only if it is a path on this site (no `//host`, no `/\host`,
 * no control characters): anything else becomes `fallback`. Zod-free, so the client's always-loaded code
 * (header menu, route guards) can use it without pulling zod into the home page's JavaScript.
 */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string') return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if ([...value].some((ch) => ch.charCodeAt(0) < 32)) return fallback;
  return value;
}
