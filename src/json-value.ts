/**
 * The one test for "a JSON object" used wherever untrusted JSON (request bodies, provider messages,
 * tool output, schemas) is walked: a non-null object that is not an array. Kept in a module of its
 * own, with no imports, so any layer can use it without pulling in another.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
