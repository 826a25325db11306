/**
 * Shape limits for untrusted JSON values (tool arguments from a model, structured output from a tool),
 * checked with an explicit stack before anything walks the value recursively. A value nested 10,000
 * levels deep fits in a small request body and overflows the call stack of any recursive walker
 * (secret substitution, redaction, zod, JSON.stringify); checking first turns that into a refusal.
 */

export interface JsonShapeLimits {
  /** Deepest nesting of objects and arrays (the top-level object is depth 1). */
  maxDepth: number;
  /** Most values in all (every object, array, string, number, boolean and null counts once). */
  maxNodes: number;
  /** Longest object key, in UTF-16 code units. */
  maxKeyLength: number;
}

/** Limits for a call's arguments: generous for any real tool schema, far below what hurts the host. */
export const DEFAULT_ARGUMENT_LIMITS: JsonShapeLimits = Object.freeze({ maxDepth: 64, maxNodes: 100_000, maxKeyLength: 1_024 });

export type JsonShapeViolation =
  | { limit: 'maxDepth'; value: number; message: string }
  | { limit: 'maxNodes'; value: number; message: string }
  | { limit: 'maxKeyLength'; value: number; message: string };

/**
 * The first limit `value` breaks, or undefined when it fits. Iterative: safe on any depth, and it
 * stops at the first violation, so its cost is bounded by the limits, not by the input.
 */
export function findJsonShapeViolation(value: unknown, limits: JsonShapeLimits = DEFAULT_ARGUMENT_LIMITS): JsonShapeViolation | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (++nodes > limits.maxNodes) {
      return { limit: 'maxNodes', value: limits.maxNodes, message: `too many values (limit ${limits.maxNodes} values in all)` };
    }
    if (typeof current !== 'object' || current === null) continue;
    const childDepth = depth + 1;
    if (childDepth > limits.maxDepth) {
      return { limit: 'maxDepth', value: limits.maxDepth, message: `nested too deep (limit ${limits.maxDepth} levels of objects and arrays)` };
    }
    if (Array.isArray(current)) {
      if (nodes + current.length > limits.maxNodes) {
        return { limit: 'maxNodes', value: limits.maxNodes, message: `too many values (limit ${limits.maxNodes} values in all)` };
      }
      for (const item of current) stack.push({ value: item, depth: childDepth });
      continue;
    }
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      if (key.length > limits.maxKeyLength) {
        return { limit: 'maxKeyLength', value: limits.maxKeyLength, message: `an object key is too long (${key.length} characters; limit ${limits.maxKeyLength})` };
      }
      stack.push({ value: (current as Record<string, unknown>)[key], depth: childDepth });
      if (stack.length + nodes > limits.maxNodes) {
        return { limit: 'maxNodes', value: limits.maxNodes, message: `too many values (limit ${limits.maxNodes} values in all)` };
      }
    }
  }
  return undefined;
}
