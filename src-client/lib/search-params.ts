// Search-parameter parsers for the route definitions that load with every page. They are plain
// functions, not zod schemas, so zod stays out of the home page's initial JavaScript (docs/benchmarks.md);
// each keeps the zod version's rule: a value of the wrong type is dropped, never an error.

/** A string parameter, or undefined when missing or not a string. */
export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number parameter, or undefined. */
export function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Only the keys whose value is defined, so URLs do not grow `key=undefined`. */
export function definedOnly<T extends Record<string, unknown>>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as T;
}
