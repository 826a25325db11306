/**
 * Rich result parts (src/result.ts `ResultPart`): their caps, the one-line text each leaves in
 * `content` for text-only edges, and workspace file URIs.
 *
 * A workspace file is named `file:///<path relative to the workspace>` (each segment percent-encoded),
 * the form MCP resources use for it. `resolveWorkspaceFileUri` is the one check a URI a tool hands
 * back goes through: only `file:///` with plain segments (no `.`/`..`, empty segments, NUL or
 * backslash, no query or fragment); anything else is refused with a message saying why.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { ResultPart, ToolResult } from '../result.ts';

/** The most parts one result may carry. */
export const MAX_RESULT_PARTS = 32;
/** The longest URI a part may name. */
export const MAX_PART_URI_CHARS = 2048;

const WORKSPACE_FILE_PREFIX = 'file:///';

/** `file:///<relative path>` of a path relative to the workspace (segments joined with `/`). */
export function workspaceFileUri(relativePath: string): string {
  return WORKSPACE_FILE_PREFIX + relativePath.split(/[\\/]+/).filter((segment) => segment !== '').map(encodeURIComponent).join('/');
}

export type WorkspaceUriCheck = { ok: true; relativePath: string; hostPath: string } | { ok: false; reason: string };

/** The workspace file a `file:///…` URI names, checked lexically (see the module comment); the file need not exist. */
export function resolveWorkspaceFileUri(workspaceRoot: string, uri: string): WorkspaceUriCheck {
  if (uri.length > MAX_PART_URI_CHARS) return { ok: false, reason: `the URI is longer than ${MAX_PART_URI_CHARS} characters` };
  if (!uri.startsWith(WORKSPACE_FILE_PREFIX)) return { ok: false, reason: `a workspace file URI starts with ${WORKSPACE_FILE_PREFIX} and names a path inside the workspace` };
  const rest = uri.slice(WORKSPACE_FILE_PREFIX.length);
  if (rest.includes('?') || rest.includes('#')) return { ok: false, reason: 'a workspace file URI has no query or fragment' };
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, reason: 'the URI has a broken percent-encoding' };
    }
    if (segment === '' || segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\\') || segment.includes('\0')) {
      return { ok: false, reason: 'the path must be relative to the workspace, without empty, "." or ".." segments' };
    }
    segments.push(segment);
  }
  const relativePath = segments.join('/');
  return { ok: true, relativePath, hostPath: join(workspaceRoot, ...segments) };
}

/** True when `inner` is `outer` or beneath it. */
export function isWithin(outer: string, inner: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path));
}

export type WorkspaceFileCheck = { ok: true; relativePath: string; size: number } | { ok: false; reason: string };

/** A workspace file URI that names an existing regular file inside the workspace, symlinks resolved. */
export async function checkWorkspaceFile(workspaceRoot: string, uri: string): Promise<WorkspaceFileCheck> {
  const lexical = resolveWorkspaceFileUri(workspaceRoot, uri);
  if (!lexical.ok) return lexical;
  try {
    const [root, real] = await Promise.all([realpath(workspaceRoot), realpath(lexical.hostPath)]);
    if (!isWithin(root, real)) return { ok: false, reason: 'the path leads out of the workspace (through a symbolic link)' };
    const info = await stat(real);
    if (!info.isFile()) return { ok: false, reason: 'the path is not a regular file' };
    return { ok: true, relativePath: lexical.relativePath, size: info.size };
  } catch {
    return { ok: false, reason: 'no such file in the workspace' };
  }
}

/** Decoded size of a base64 text (no decoding). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** The line a part leaves in `content`, so text-only edges say what else came back. */
export function describePart(part: ResultPart): string {
  switch (part.type) {
    case 'image':
    case 'audio':
      return `[${part.type}: ${part.mime_type}, ${base64Bytes(part.data)} bytes]`;
    case 'resource':
      return `[resource: ${part.uri}${part.mime_type ? `, ${part.mime_type}` : ''}]${part.text !== undefined ? `\n${part.text}` : ''}`;
    case 'resource_link':
      return `[file: ${part.uri}${part.size !== undefined ? `, ${part.size} bytes` : ''}]`;
  }
}

/**
 * A result as one text, for edges that carry text only (OpenAI function results, the text protocol,
 * the CLI): `content`, then one line per part (describePart). Parts listed in `shown` are left out
 * (an edge that carries them in its own shape).
 */
export function resultText(result: ToolResult, shown: ReadonlySet<ResultPart> = new Set()): string {
  const lines = (result.parts ?? []).filter((part) => !shown.has(part)).map(describePart);
  if (lines.length === 0) return result.content;
  return [result.content, ...lines].filter((line) => line !== '').join('\n');
}
