/**
 * JSON Schema keywords that document a property without zod acting on them. The one in use is
 * `default`: what the program uses when the property is left out. zod's own `.default()` would fill
 * the value in at parse time, so the tool could no longer tell a value the caller sent from one it
 * never sent; a documented default is shown in the JSON Schema and nothing else.
 *
 * Registered on the exact schema object that goes into the shape (keyed by its `_def`; zod methods
 * such as `.describe()` make a new object, so register last), and merged into the JSON Schema by
 * `jsonSchemaOf` through zod-to-json-schema's `postProcess` hook (`addDocumentedKeywords`).
 */
import type { z } from 'zod';
import type { PostProcessCallback } from 'zod-to-json-schema';

export interface DocumentedKeywords {
  /** What the program uses when the property is left out; never filled in by the parser. */
  default?: string | number | boolean;
}

const DOCUMENTED = new WeakMap<z.ZodTypeDef, DocumentedKeywords>();

/** Records keywords for this exact schema's JSON Schema. Returns the same schema. */
export function withDocumentedKeywords<T extends z.ZodTypeAny>(schema: T, keywords: DocumentedKeywords): T {
  DOCUMENTED.set(schema._def, { ...DOCUMENTED.get(schema._def), ...keywords });
  return schema;
}

/** zod-to-json-schema `postProcess`: adds the keywords recorded for a schema to its JSON Schema. */
export const addDocumentedKeywords: PostProcessCallback = (jsonSchema, def) => {
  const keywords = DOCUMENTED.get(def);
  return keywords === undefined || jsonSchema === undefined ? jsonSchema : { ...jsonSchema, ...keywords };
};
