import { basename } from 'node:path';
import { ToolHostError } from './errors.ts';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Longest name providers accept (Anthropic, OpenAI and Gemini function names). */
export const MAX_TOOL_NAME_LENGTH = 64;

export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

export function assertValidToolName(name: string): void {
  if (!isValidToolName(name)) {
    throw new ToolHostError('INVALID_TOOL_NAME', `Invalid tool name "${name}": names must match ${TOOL_NAME_PATTERN.source}`);
  }
}

/**
 * Turns any string into a valid tool name (used for names derived from files or help text).
 * A string that already is a valid name (after dropping a `.wasm`/`.exe` extension) is kept as is,
 * so the name a person gave a file is the name the tool gets.
 */
export function sanitizeToolName(raw: string): string {
  const stem = raw.replace(/\.(wasm|exe)$/i, '');
  if (isValidToolName(stem)) return stem;
  const cleaned = stem
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_TOOL_NAME_LENGTH);
  return cleaned.length > 0 ? cleaned : 'tool';
}

/**
 * `name` with the clash suffix `_<n>` (n ≥ 2), shortened first so the result stays within
 * the 64-character limit: the n-th tool that wanted `name`.
 */
export function suffixedToolName(name: string, n: number): string {
  const suffix = `_${n}`;
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** The stem of a component file: `dir/git-clone.wasm` → `git-clone` (its default tool and program name). */
export function fileStem(file: string): string {
  return basename(file).replace(/\.wasm$/, '');
}
