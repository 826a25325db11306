import { ToolHostError } from './errors.ts';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

export function assertValidToolName(name: string): void {
  if (!isValidToolName(name)) {
    throw new ToolHostError('INVALID_TOOL_NAME', `Invalid tool name "${name}": names must match ${TOOL_NAME_PATTERN.source}`);
  }
}

/** Turns any string into a valid tool name (used for names derived from files or help text). */
export function sanitizeToolName(raw: string): string {
  const cleaned = raw
    .replace(/\.(wasm|exe)$/i, '')
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return cleaned.length > 0 ? cleaned : 'tool';
}
