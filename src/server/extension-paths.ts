/**
 * Extension file paths as the HTTP API shows them (`/v1/tools/{name}/inspect`, `/v1/load-failures`,
 * `tool_load_failed` error details, `/v1/events`): relative to the extensions folder, with `/`
 * separators (`greet.wasm`, `team/lint.wasm`), never the host's absolute layout; a file outside the
 * folder shows its base name only. Error texts that quote the folder's absolute path are rewritten
 * the same way. The CLI, run by the operator on the host, keeps absolute paths.
 */
import { basename, isAbsolute, relative, sep } from 'node:path';
import type { HostEvent, LoadFailure } from '../host-types.ts';
import type { ToolLookup } from '../registry.ts';

/** `file` relative to `extensionsDir` (`/`-separated); its base name when outside it or when there is no folder. */
export function publicExtensionPath(extensionsDir: string | undefined, file: string): string {
  if (extensionsDir === undefined || !isAbsolute(file)) return isAbsolute(file) ? basename(file) : file;
  const inside = relative(extensionsDir, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return basename(file);
  return inside.split(sep).join('/');
}

/** `text` with the extensions folder's absolute path (and what follows it) made relative to the folder. */
export function publicExtensionText(extensionsDir: string | undefined, text: string): string {
  if (extensionsDir === undefined || extensionsDir === '' || extensionsDir === sep) return text;
  const prefix = extensionsDir.endsWith(sep) ? extensionsDir : `${extensionsDir}${sep}`;
  return text.split(prefix).join('').split(extensionsDir).join('.');
}

export function publicLoadFailure(extensionsDir: string | undefined, failure: LoadFailure): LoadFailure {
  return { ...failure, file: publicExtensionPath(extensionsDir, failure.file), error: publicExtensionText(extensionsDir, failure.error) };
}

/** The `details` of a 404 for a tool that is not served: for a file that failed to load, its public path and error. */
export function notFoundDetails(extensionsDir: string | undefined, lookup: Exclude<ToolLookup, { found: true }>): Record<string, unknown> {
  if (lookup.reason === 'loading') return { reason: lookup.reason, file: publicExtensionPath(extensionsDir, lookup.file) };
  if (lookup.reason !== 'load_failed') return { reason: lookup.reason };
  return { reason: lookup.reason, file: publicExtensionPath(extensionsDir, lookup.file), load_error: publicExtensionText(extensionsDir, lookup.error) };
}

/** A host event as `/v1/events` sends it: extension paths made public. */
export function publicHostEvent(extensionsDir: string | undefined, event: HostEvent): HostEvent {
  if (event.type === 'load_failed') return { ...event, ...publicLoadFailure(extensionsDir, event) };
  if ('file' in event && typeof event.file === 'string') {
    const file = publicExtensionPath(extensionsDir, event.file);
    return 'reason' in event && typeof event.reason === 'string' ? { ...event, file, reason: publicExtensionText(extensionsDir, event.reason) } : { ...event, file };
  }
  return event;
}
