/**
 * Pre-parse normalization of raw JSON arguments against a zod object schema:
 * - `""` is dropped from optional fields (a model's way of saying "not given") but kept on required ones,
 *   and kept on optional fields marked with `emptyStringIsAValue` (a CLI positional, where `""` is an
 *   argument the program gets: `grep "" file` matches every line);
 * - lossless mismatches models commonly send are coerced: `"5"` → 5 for numbers, `"true"` → true for
 *   booleans, `5`/`true` → `"5"`/`"true"` for strings;
 * - `null` on an optional field that does not accept null is dropped too.
 * Anything else is left for zod to reject with a precise message.
 */
import { z } from 'zod';
import { isPlainObject } from '../json-value.ts';

type AnyZod = z.ZodTypeAny;

interface Unwrapped {
  inner: AnyZod;
  optional: boolean;
}

function unwrap(schema: AnyZod): Unwrapped {
  let current = schema;
  let optional = false;
  for (;;) {
    if (current instanceof z.ZodOptional) {
      optional = true;
      current = current.unwrap();
    } else if (current instanceof z.ZodDefault) {
      optional = true;
      current = current.removeDefault();
    } else if (current instanceof z.ZodNullable) {
      current = current.unwrap();
    } else if (current instanceof z.ZodEffects) {
      current = current.innerType();
    } else if (current instanceof z.ZodBranded) {
      current = current.unwrap();
    } else {
      return { inner: current, optional };
    }
  }
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function coerceValue(schema: AnyZod, value: unknown): unknown {
  const { inner } = unwrap(schema);
  if (inner instanceof z.ZodNumber && typeof value === 'string') {
    const text = value.trim();
    if (NUMBER_TEXT.test(text)) {
      const parsed = Number(text);
      if (Number.isFinite(parsed)) return parsed;
    }
    return value;
  }
  if (inner instanceof z.ZodBoolean && typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
    return value;
  }
  if ((inner instanceof z.ZodString || isStringEnum(inner)) && (typeof value === 'number' || typeof value === 'boolean')) {
    return Number.isFinite(value as number) || typeof value === 'boolean' ? String(value) : value;
  }
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => coerceValue(inner.element as AnyZod, item));
  }
  if (inner instanceof z.ZodObject && isPlainObject(value)) {
    return normalizeObject(inner as z.ZodObject<z.ZodRawShape>, value);
  }
  return value;
}

/** Fields whose `""` is a value even when they are optional (see `emptyStringIsAValue`). */
const EMPTY_STRING_VALUES = new WeakSet<AnyZod>();

/**
 * Marks a field (the exact schema object put in the object's shape) whose `""` is a value the tool
 * gets, not "not given", even when the field is optional. Returns the same schema.
 */
export function emptyStringIsAValue<T extends AnyZod>(schema: T): T {
  EMPTY_STRING_VALUES.add(schema);
  return schema;
}

/**
 * `""` on an optional field (unless it is marked `emptyStringIsAValue`), or `null` on an optional
 * field that does not accept null, means "not given".
 */
function isOmittable(field: AnyZod, item: '' | null): boolean {
  const { optional } = unwrap(field);
  if (!optional) return false;
  if (item === '') return !EMPTY_STRING_VALUES.has(field);
  return !field.safeParse(null).success;
}

function isStringEnum(schema: AnyZod): boolean {
  return schema instanceof z.ZodEnum;
}

/** Drops "not given" values from optional fields and coerces lossless mismatches, recursively. */
export function normalizeObject(schema: z.ZodObject<z.ZodRawShape>, value: Record<string, unknown>): Record<string, unknown> {
  const shape = schema.shape;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = shape[key];
    if (field === undefined) {
      result[key] = item;
      continue;
    }
    if ((item === '' || item === null) && isOmittable(field, item)) continue;
    result[key] = coerceValue(field, item);
  }
  return result;
}
