/**
 * `file:///{path}` URIs of workspace files: `{path}` is the file's path relative to the workspace root
 * (`file:///src/index.ts` is `<workspace>/src/index.ts`), never an absolute path of the machine.
 *
 * `parseWorkspaceUri` is the lexical gate every workspace URI passes before anything is opened (the
 * open itself is confined again beneath the workspace fd, builtins/internal/workspace.ts). It does
 * not use the WHATWG URL parser, which resolves `%2e%2e` and `..` on its own and would hide a
 * traversal: the path is percent-decoded once, then split on `/` (so `%2F` separates too, as a
 * client expanding the template `{path}` by RFC 6570 sends it), and refused when it has a host part
 * (`file://server/…`), a query or fragment, a NUL byte, an empty segment (`file:////etc/passwd`,
 * `a//b`) or a `.`/`..` segment, spelled or encoded. Linear in the URI's length; URIs over
 * `MAX_URI_CHARS` are refused unread.
 */
import { ResourceError } from './types.ts';

export const WORKSPACE_URI_PREFIX = 'file:///';
/** The template clients fill to read any workspace file. */
export const WORKSPACE_URI_TEMPLATE = 'file:///{path}';
/** Longest URI looked at (Linux's PATH_MAX is 4096 bytes). */
export const MAX_URI_CHARS = 8192;

/** The URI of the workspace file at `relative` (`/` separators, no leading slash). */
export function workspaceUri(relative: string): string {
  return WORKSPACE_URI_PREFIX + relative.split('/').map(encodeURIComponent).join('/');
}

/** True when `uri` uses the file scheme (any case): the workspace source answers for it, if only to refuse it. */
export function isFileUri(uri: string): boolean {
  return uri.length >= 7 && uri.slice(0, 7).toLowerCase() === 'file://';
}

/**
 * The workspace-relative path `uri` names (`.` for `file:///`), or a ResourceError: INVALID_URI for a
 * malformed URI or one with a host part, REFUSED for one that would leave the workspace.
 */
export function parseWorkspaceUri(uri: string): string {
  if (uri.length > MAX_URI_CHARS) throw new ResourceError('INVALID_URI', `The URI is longer than ${MAX_URI_CHARS} characters.`);
  if (!isFileUri(uri)) throw new ResourceError('INVALID_URI', `"${uri}" is not a file:/// URI of the workspace.`);
  const rest = uri.slice('file://'.length);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  if (slash === -1 && authority === '') throw new ResourceError('INVALID_URI', `"${uri}" has no path; workspace files are file:///{path}.`);
  if (authority !== '') {
    throw new ResourceError('INVALID_URI', `"${uri}" names a host ("${authority}"); workspace files are file:///{path} with no host part.`);
  }
  const rawPath = rest.slice(slash + 1);
  if (rawPath.includes('?') || rawPath.includes('#')) {
    throw new ResourceError('INVALID_URI', `"${uri}" has a query or fragment; workspace files are file:///{path}.`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw new ResourceError('INVALID_URI', `"${uri}" has a malformed percent-encoding.`);
  }
  if (decoded.includes('\0')) throw new ResourceError('REFUSED', `"${uri}" contains a NUL byte.`);
  if (decoded === '') return '.';
  const segments = decoded.split('/');
  for (const segment of segments) {
    if (segment === '') {
      throw new ResourceError('REFUSED', `"${uri}" has an empty path segment (an absolute path, or "//"); give the path relative to the workspace root, e.g. file:///src/index.ts.`);
    }
    if (segment === '.' || segment === '..') {
      throw new ResourceError('REFUSED', `"${uri}" has a "${segment}" segment; paths that climb or stand still are refused. Give the path relative to the workspace root.`);
    }
  }
  return segments.join('/');
}
