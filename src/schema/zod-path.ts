/**
 * The zod schema a validation issue's `path` points at, inside a root schema: through objects
 * (shape keys), records (any key), arrays and tuples (numeric keys), and the wrappers optional,
 * nullable, default, effects (refine, transform, preprocess), branded, catch, readonly and lazy.
 * Used to word an issue by what the field is (an integer field says "expected integer" where zod's
 * own issue says "number"). Undefined where the path leaves the schema (a union, an unknown key).
 */
import { z } from 'zod';

/** The wrappers' inner schema, until a schema that is none of them. */
export function unwrapSchema(schema: z.ZodTypeAny): z.ZodTypeAny {
  let current = schema;
  for (let depth = 0; depth < 64; depth++) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodTypeAny;
    else if (current instanceof z.ZodDefault) current = current.removeDefault() as z.ZodTypeAny;
    else if (current instanceof z.ZodEffects) current = current.innerType() as z.ZodTypeAny;
    else if (current instanceof z.ZodBranded) current = current.unwrap() as z.ZodTypeAny;
    else if (current instanceof z.ZodCatch) current = current.removeCatch() as z.ZodTypeAny;
    else if (current instanceof z.ZodReadonly) current = current.unwrap() as z.ZodTypeAny;
    else if (current instanceof z.ZodLazy) current = current.schema as z.ZodTypeAny;
    else return current;
  }
  return current;
}

/** The schema at `path` below `root`, unwrapped; undefined where the path cannot be followed. */
export function schemaAtPath(root: z.ZodTypeAny, path: readonly (string | number)[]): z.ZodTypeAny | undefined {
  let current: z.ZodTypeAny | undefined = unwrapSchema(root);
  for (const key of path) {
    if (current instanceof z.ZodObject) current = (current.shape as Record<string, z.ZodTypeAny>)[String(key)];
    else if (current instanceof z.ZodRecord) current = current.valueSchema as z.ZodTypeAny;
    else if (current instanceof z.ZodArray) current = current.element as z.ZodTypeAny;
    else if (current instanceof z.ZodTuple && typeof key === 'number') current = (current.items as z.ZodTypeAny[])[key] ?? (current._def.rest as z.ZodTypeAny | null) ?? undefined;
    else return undefined;
    if (current === undefined) return undefined;
    current = unwrapSchema(current);
  }
  return current;
}

/** True for a number schema with `.int()`. */
export function isIntegerSchema(schema: z.ZodTypeAny | undefined): boolean {
  return schema instanceof z.ZodNumber && schema.isInt;
}
