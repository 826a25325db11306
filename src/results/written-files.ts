/**
 * Files a call wrote, returned as resource links: a tool that declares `output_files` (globs relative
 * to the workspace, in its `.tool.json` or `--help-json` spec) gets a `resource_link` part
 * (`file:///<path in the workspace>`, name, size) for each file matching a glob that the call created
 * or changed in a folder it may write (its `rw` grants inside the workspace).
 *
 * How "created or changed" is told, bounded: before the call, one listing of those folders (at most
 * MAX_LISTED_ENTRIES entries, MAX_LISTING_DEPTH levels, symbolic links not followed) records each
 * matching file's mtime and size; after it, the same listing finds the files that are new or differ.
 * A folder past the caps is listed only up to them (the rest is not linked, and `metadata.
 * output_files_capped` says so). At most MAX_LINKED_FILES links per call. Globs are matched with
 * picomatch without brace or extglob expansion, each at most MAX_GLOB_CHARS long; picomatch is
 * imported by the first call that lists files, not with this module (the spec schema imports it).
 */
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { ResourceLinkPart } from '../result.ts';
import { isWithin, workspaceFileUri } from './result-parts.ts';

export const MAX_LISTED_ENTRIES = 5_000;
export const MAX_LISTING_DEPTH = 8;
export const MAX_LINKED_FILES = 16;
export const MAX_GLOB_CHARS = 200;

/** `output_files` of a spec or `.tool.json`. */
export const outputFilesSchema = z.array(z.string().min(1).max(MAX_GLOB_CHARS)).min(1).max(16);

export interface FileListing {
  /** Workspace-relative path (with `/`) → `mtimeMs:size`. */
  files: Map<string, string>;
  /** True when a cap stopped the listing. */
  capped: boolean;
}

export interface WrittenFilesWatch {
  /** The listing after the call, compared with the one before: links to the new or changed files. */
  links(): Promise<{ links: ResourceLinkPart[]; capped: boolean }>;
}

async function listFolders(workspaceRoot: string, folders: readonly string[], matches: (path: string) => boolean): Promise<FileListing> {
  const files = new Map<string, string>();
  let entries = 0;
  let capped = false;
  const stack: Array<{ dir: string; depth: number }> = folders.map((dir) => ({ dir, depth: 0 }));
  while (stack.length > 0) {
    const { dir, depth } = stack.pop() as { dir: string; depth: number };
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (++entries > MAX_LISTED_ENTRIES) return { files, capped: true };
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (info === undefined) continue;
      if (info.isDirectory()) {
        if (depth + 1 < MAX_LISTING_DEPTH) stack.push({ dir: path, depth: depth + 1 });
        else capped = true;
      } else if (info.isFile()) {
        const relativePath = relative(workspaceRoot, path).split(sep).join('/');
        if (matches(relativePath)) files.set(relativePath, `${info.mtimeMs}:${info.size}`);
      }
    }
  }
  return { files, capped };
}

/**
 * Lists the writable folders now (before the call). `writableFolders` are the host paths of the
 * call's `rw` grants; those outside the workspace are skipped (a link names a workspace file).
 */
export async function watchWrittenFiles(workspaceRoot: string, writableFolders: readonly string[], globs: readonly string[]): Promise<WrittenFilesWatch> {
  const folders = writableFolders.filter((folder) => isWithin(workspaceRoot, folder));
  const { default: picomatch } = await import('picomatch');
  const matches = picomatch([...globs], { nobrace: true, noextglob: true, dot: false });
  const before = await listFolders(workspaceRoot, folders, matches);
  return {
    async links() {
      const after = await listFolders(workspaceRoot, folders, matches);
      const links: ResourceLinkPart[] = [];
      for (const [path, stamp] of [...after.files].sort(([a], [b]) => a.localeCompare(b))) {
        if (before.files.get(path) === stamp) continue;
        if (links.length === MAX_LINKED_FILES) return { links, capped: true };
        links.push({ type: 'resource_link', uri: workspaceFileUri(path), name: basename(path), size: Number(stamp.split(':')[1]) });
      }
      return { links, capped: before.capped || after.capped };
    },
  };
}
