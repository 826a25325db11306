/**
 * Gemini `FunctionDeclaration`. Parameters are converted to Gemini's OpenAPI-3.0 schema subset
 * (see ../gemini-schema.ts for the keyword allow-list and conversion rules). Gemini rejects an
 * object `parameters` with no properties ("should be non-empty for OBJECT type"), so a tool
 * without parameters is declared without `parameters`, which Gemini documents as allowed.
 */
import { type GeminiSchema, toGeminiSchema } from '../gemini-schema.ts';
import { normalizeSchema } from '../normalize.ts';
import type { ToolDescriptor } from './tool-descriptor.ts';

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: GeminiSchema;
}

export function toGeminiFunctionDeclaration(tool: ToolDescriptor): GeminiFunctionDeclaration {
  // Normalizing again is idempotent for tool schemas and makes hand-written ones ref-free too.
  const parameters = toGeminiSchema(normalizeSchema(tool.inputSchema));
  const declaration: GeminiFunctionDeclaration = { name: tool.name, description: tool.description };
  const hasParameters = parameters.type !== 'object' || Object.keys(parameters.properties ?? {}).length > 0;
  if (hasParameters) declaration.parameters = parameters;
  return declaration;
}
