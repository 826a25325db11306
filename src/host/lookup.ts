/**
 * Tool lookup as every edge sees it: the registry's answer, and for a name no tool has, the load
 * failure of the extension file that would have given it (same stem), so a caller learns why a tool
 * it dropped in is missing instead of "unknown tool".
 */
import { basename } from 'node:path';
import type { LoadFailure } from '../host-types.ts';
import type { ToolLookup, ToolRegistry } from '../registry.ts';
import { sanitizeToolName } from '../tool-name.ts';

export function createToolLookup(registry: ToolRegistry, loadFailures: () => readonly LoadFailure[]): (name: string) => ToolLookup {
  return (name) => {
    const lookup = registry.lookup(name);
    if (lookup.found || lookup.reason !== 'unknown') return lookup;
    const failure = loadFailures().find((candidate) => sanitizeToolName(basename(candidate.file)) === name);
    if (!failure) return lookup;
    return {
      found: false,
      reason: 'load_failed',
      file: failure.file,
      error: failure.error,
      message: `Tool "${name}" is not available: its file ${basename(failure.file)} failed to load: ${failure.error}`,
    };
  };
}
