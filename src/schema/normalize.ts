// Minimal version; the full normalization (ref inlining, cycles, titles) is being written.
export type JsonSchema = { [key: string]: unknown };

export function normalizeSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
