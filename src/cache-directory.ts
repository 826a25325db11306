/**
 * Where toolhost keeps its on-disk cache (transpiled components, captured help): one folder per user,
 * chosen without loading anything else, so the host can name it (and hide it from commands) cheaply.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The cache folder name under the user's cache directory. */
export const CACHE_FOLDER_NAME = 'toolhost';

/**
 * The user's cache directory for toolhost: `$XDG_CACHE_HOME/toolhost` when XDG_CACHE_HOME is set to
 * an absolute path (the XDG spec ignores relative ones), else `~/.cache/toolhost`. Never the working
 * directory: `toolhost mcp` is started by MCP clients from wherever they run.
 */
export function userCacheDirectory(env: Readonly<Record<string, string | undefined>> = process.env, home: string = homedir()): string {
  const xdg = env['XDG_CACHE_HOME'];
  return xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? join(xdg, CACHE_FOLDER_NAME) : join(home, '.cache', CACHE_FOLDER_NAME);
}

/** `$TOOLHOST_CACHE_DIR` when set, else the user's cache directory (`userCacheDirectory`). */
export function defaultCacheDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const fromEnvironment = env['TOOLHOST_CACHE_DIR'];
  return fromEnvironment !== undefined && fromEnvironment !== '' ? resolve(fromEnvironment) : userCacheDirectory(env);
}

