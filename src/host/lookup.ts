/**
 * Tool lookup as every edge sees it: the registry's answer, and for a name no tool has, the load
 * failure of the extension file that would have given it (same stem), so a caller learns why a tool
 * it dropped in is missing instead of "unknown tool"; while the host's first load still loads a file
 * that may provide the name, that it is loading.
 */
import { basename } from 'node:path';
import type { LoadFailure } from '../host-types.ts';
import type { ToolLookup, ToolRegistry } from '../registry.ts';
import { sanitizeToolName } from '../tool-name.ts';

export function createToolLookup(registry: ToolRegistry, loadFailures: () => readonly LoadFailure[], pendingFor: (name: string) => readonly string[] = () => []): (name: string) => ToolLookup {
  return (name) => {
    const lookup = registry.lookup(name);
    if (lookup.found || lookup.reason !== 'unknown') return lookup;
    const loading = pendingFor(name)[0];
    if (loading !== undefined) {
      return { found: false, reason: 'loading', file: loading, message: `Tool "${name}" is not available yet: its file ${basename(loading)} is still loading. Retry shortly.` };
    }
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
