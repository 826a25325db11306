/**
 * The workspace as MCP resources: every file of the workspace is `file:///{path}` (file-uri.ts),
 * confined exactly like the built-in file tools (builtins/internal/workspace.ts: opened beneath the
 * workspace fd one component at a time with `O_NOFOLLOW`; symbolic links that lead outside, `..`,
 * absolute paths, devices and FIFOs are refused) and subject to the host's permission mode: a mode
 * below `read_only` (`none`) lists nothing, offers no template and refuses every read and watch.
 *
 * - list: pages of `RESOURCE_PAGE_SIZE` files (workspace-listing.ts: resumable, bounded per page,
 *   skipping the file tools' ignored directories `node_modules` and `.git`); the cursor is the last
 *   position handled.
 * - read: a regular file up to `maxReadBytes` (default `MAX_RESOURCE_BYTES`, 10 MiB) as text when it
 *   is UTF-8 without NUL bytes, else as a base64 blob; the media type from the extension, else from
 *   the content. A larger file is refused (`TOO_LARGE`, with its size and the cap).
 * - template `file:///{path}` with completion of `path` (one directory read, prefix match, at most
 *   `MAX_COMPLETION_VALUES` values).
 * - watch / list changes: workspace-watch.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { entryPath } from '../confined-fs/open-beneath.ts';
import type { Logger } from '../logger.ts';
import { isPermitted, type PermissionLevel } from '../permission.ts';
import { formatBytes, readDescriptor } from '../../builtins/internal/files.ts';
import { DEFAULT_IGNORED_DIRECTORIES } from '../../builtins/internal/walk.ts';
import { hostFilesOf, isHiddenHostFile, type HostFiles } from '../../builtins/internal/host-files.ts';
import { openRequestedEntry, openWorkspace, type Workspace } from '../../builtins/internal/workspace.ts';
import type { CommandSandboxSettings } from '../command-sandbox.ts';
import { isFileUri, parseWorkspaceUri, WORKSPACE_URI_TEMPLATE, workspaceUri } from './file-uri.ts';
import { decodeText, mediaTypeByName, mediaTypeOf } from './media-type.ts';
import { ResourceError, type CompletionAnswer, type ResourceContents, type ResourcePage, type ResourceSource } from './types.ts';
import { listWorkspaceFiles } from './workspace-listing.ts';
import { WorkspaceWatch } from './workspace-watch.ts';

/** Largest file `resources/read` returns (the file tools' whole-file limit). */
export const MAX_RESOURCE_BYTES = 10 * 1024 * 1024;
/** Files per `resources/list` page. */
export const RESOURCE_PAGE_SIZE = 200;
/** Most directory entries one page looks at (empty folders count too). */
export const RESOURCE_PAGE_MAX_EXAMINED = 5000;
/** Deepest directory listed or watched below the workspace root. */
export const RESOURCE_MAX_DEPTH = 32;
/** Most directories watched for `notifications/resources/list_changed`. */
export const RESOURCE_WATCH_MAX_DIRECTORIES = 4096;
/** Most workspace files watched at once for subscriptions, over every session. */
export const RESOURCE_WATCH_MAX_FILES = 1024;
/** Most values one completion returns. */
export const MAX_COMPLETION_VALUES = 100;
/** Longest completion value looked at. */
const MAX_COMPLETION_INPUT_CHARS = 4096;

export interface WorkspaceResourceOptions {
  workspaceRoot: string;
  permissionMode: PermissionLevel;
  maxReadBytes?: number;
  pageSize?: number;
  /** Most directories watched for list changes. Default RESOURCE_WATCH_MAX_DIRECTORIES. */
  maxWatchedDirectories?: number;
  /** Most files watched at once for subscriptions. Default RESOURCE_WATCH_MAX_FILES. */
  maxWatchedFiles?: number;
  logger?: Logger | undefined;
  /** The host's own files (the shell sandbox's settings): hidden ones are neither listed nor read. */
  sandbox?: CommandSandboxSettings | undefined;
}

export const WORKSPACE_TEMPLATE: ResourceTemplate = {
  uriTemplate: WORKSPACE_URI_TEMPLATE,
  name: 'workspace-file',
  title: 'Workspace file',
  description: 'A file of the workspace, by its path relative to the workspace root (e.g. file:///src/index.ts).',
};

const ignoredDirectoryNames: ReadonlySet<string> = new Set(DEFAULT_IGNORED_DIRECTORIES);

function withWorkspace<T>(root: string, hostFiles: HostFiles, action: (workspace: Workspace) => Promise<T>): Promise<T> {
  const opening = openWorkspace(root, hostFiles);
  if (!opening.ok) return Promise.reject(new ResourceError('REFUSED', opening.message));
  return action(opening.workspace).finally(() => opening.workspace.close());
}

/** A cursor of this source: a workspace-relative position, checked like a URI's path. */
function positionOf(cursor: string): string {
  try {
    const position = parseWorkspaceUri(workspaceUri(cursor));
    if (position === '.') throw new Error('root');
    return position;
  } catch {
    throw new ResourceError('INVALID_CURSOR', 'The cursor is not one this server handed out; list again from the start.');
  }
}

export function workspaceResourceSource(options: WorkspaceResourceOptions): ResourceSource {
  const root = path.resolve(options.workspaceRoot);
  const hostFiles = hostFilesOf(options.sandbox);
  const maxReadBytes = options.maxReadBytes ?? MAX_RESOURCE_BYTES;
  const pageSize = options.pageSize ?? RESOURCE_PAGE_SIZE;
  const permitted = isPermitted('read_only', options.permissionMode);
  let rootReal: string | undefined;
  const watch = new WorkspaceWatch({
    rootReal: () => (rootReal ??= fs.realpathSync(root)),
    ignoredDirectoryNames,
    maxDepth: RESOURCE_MAX_DEPTH,
    maxDirectories: options.maxWatchedDirectories ?? RESOURCE_WATCH_MAX_DIRECTORIES,
    maxFiles: options.maxWatchedFiles ?? RESOURCE_WATCH_MAX_FILES,
    logger: options.logger,
  });

  function assertPermitted(): void {
    if (!permitted) {
      throw new ResourceError('DENIED', `The host runs in permission mode "${options.permissionMode}", which does not allow reading workspace files.`);
    }
  }

  /** Opens the file `uri` names (confined) and hands its fd and stats to `use`; closes it after. */
  async function withFile<T>(uri: string, use: (fd: number, stats: fs.Stats, relative: string, workspace: Workspace) => Promise<T>): Promise<T> {
    assertPermitted();
    const requested = parseWorkspaceUri(uri);
    return withWorkspace(root, hostFiles, async (workspace) => {
      const opened = openRequestedEntry(workspace, requested);
      if (!opened.ok) {
        if (opened.missing) throw new ResourceError('NOT_FOUND', `No workspace file at ${uri}.`, { uri });
        throw new ResourceError('REFUSED', opened.message, { uri });
      }
      try {
        if (opened.stats.isDirectory()) throw new ResourceError('REFUSED', `${uri} is a directory, not a file; resources/list shows the files.`, { uri });
        if (!opened.stats.isFile()) throw new ResourceError('REFUSED', `${uri} is not a regular file (a device, FIFO or socket) and is not read.`, { uri });
        return await use(opened.fd, opened.stats, opened.relative, workspace);
      } finally {
        fs.closeSync(opened.fd);
      }
    });
  }

  function tooLarge(uri: string, size: number): ResourceError {
    return new ResourceError('TOO_LARGE', `${uri} is ${formatBytes(size)}, over the ${formatBytes(maxReadBytes)} limit for resources; read a part of it with the read_file tool (offset, limit).`, {
      uri,
      size,
      limit: maxReadBytes,
    });
  }

  return {
    name: 'workspace',
    handles: isFileUri,

    async list(cursor, signal): Promise<ResourcePage> {
      if (!permitted) return { resources: [] };
      const after = cursor === undefined ? undefined : positionOf(cursor);
      const page = await withWorkspace(root, hostFiles, (workspace) =>
        listWorkspaceFiles(workspace.anchorFd, { after, pageSize, maxExamined: RESOURCE_PAGE_MAX_EXAMINED, maxDepth: RESOURCE_MAX_DEPTH, ignoredDirectoryNames, signal, isHidden: (relative) => isHiddenHostFile(hostFiles, workspace.rootReal, path.join(workspace.rootReal, relative)) }),
      );
      const resources = page.files.map((relative): Resource => {
        const mimeType = mediaTypeByName(relative);
        return { uri: workspaceUri(relative), name: relative, ...(mimeType !== undefined ? { mimeType } : {}) };
      });
      return page.resumeAfter === undefined ? { resources } : { resources, nextCursor: page.resumeAfter };
    },

    templates: () => (permitted ? [WORKSPACE_TEMPLATE] : []),

    read(uri): Promise<ResourceContents[]> {
      return withFile(uri, async (fd, stats, relative) => {
        if (stats.size > maxReadBytes) throw tooLarge(uri, stats.size);
        const content = await readDescriptor(fd, stats.size, maxReadBytes + 1);
        if (content.length > maxReadBytes) throw tooLarge(uri, content.length);
        const text = decodeText(content);
        const mimeType = mediaTypeOf(relative, text !== undefined);
        return [text !== undefined ? { uri, mimeType, text } : { uri, mimeType, blob: content.toString('base64') }];
      });
    },

    async watch(uri, onUpdated) {
      const absolute = await withFile(uri, async (fd, _stats, relative, workspace) => {
        // The real location the confined open reached (a link inside is watched at its target).
        const real = fs.readlinkSync(entryPath(fd));
        return real.startsWith(workspace.rootReal + path.sep) ? real : path.join(workspace.rootReal, relative);
      });
      return watch.watchFile(absolute, onUpdated);
    },

    onListChanged(listener) {
      if (!permitted) return { ready: Promise.resolve(), stop: () => undefined };
      return watch.onTreeChange(listener);
    },

    async complete(templateUri, argument, value): Promise<CompletionAnswer> {
      if (!permitted || templateUri !== WORKSPACE_URI_TEMPLATE || argument !== 'path' || value.length > MAX_COMPLETION_INPUT_CHARS) return { values: [] };
      return completePath(root, hostFiles, value);
    },

    close: () => watch.close(),
  };
}

/** Workspace paths that start with `value`: the entries of its directory part whose names start with the rest. */
async function completePath(root: string, hostFiles: HostFiles, value: string): Promise<CompletionAnswer> {
  const slash = value.lastIndexOf('/');
  const directory = slash === -1 ? '' : value.slice(0, slash);
  const prefix = value.slice(slash + 1);
  let relativeDirectory = '.';
  if (directory !== '') {
    try {
      relativeDirectory = parseWorkspaceUri(workspaceUri(directory));
    } catch {
      return { values: [] };
    }
  }
  return withWorkspace(root, hostFiles, async (workspace) => {
    const opened = openRequestedEntry(workspace, relativeDirectory);
    if (!opened.ok) return { values: [] };
    try {
      if (!opened.stats.isDirectory()) return { values: [] };
      const entries = await fs.promises.readdir(entryPath(opened.fd), { withFileTypes: true });
      const directoryReal = opened.relative === '.' ? workspace.rootReal : path.join(workspace.rootReal, opened.relative);
      const matches = entries.filter(
        (entry) =>
          entry.name.startsWith(prefix) &&
          !(prefix === '' && ignoredDirectoryNames.has(entry.name)) &&
          !isHiddenHostFile(workspace.hostFiles, workspace.rootReal, path.join(directoryReal, entry.name)),
      );
      matches.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
      const values = matches
        .slice(0, MAX_COMPLETION_VALUES)
        .map((entry) => `${directory === '' ? '' : `${directory}/`}${entry.name}${entry.isDirectory() ? '/' : ''}`);
      return { values, total: matches.length, hasMore: matches.length > values.length };
    } catch {
      return { values: [] };
    } finally {
      fs.closeSync(opened.fd);
    }
  });
}
