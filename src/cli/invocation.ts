/**
 * How to run this very toolhost again from any directory, for the commands the CLI prints as hints
 * (`toolhost check …`, the MCP client config). `toolhost` when the `toolhost` on PATH is this
 * installation (`npm install -g`); otherwise node with the absolute path of the running entry, which
 * works from anywhere without an install.
 */
import { realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const COMMAND_NAME = 'toolhost';

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The real path of the `toolhost` executable found first on PATH, if any. */
export function toolhostOnPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const directory of (env['PATH'] ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, COMMAND_NAME);
    const stats = statSync(candidate, { throwIfNoEntry: false });
    if (stats?.isFile() || stats?.isSymbolicLink()) return realpathOrUndefined(candidate);
  }
  return undefined;
}

export interface Invocation {
  /** The executable: `toolhost`, or node's absolute path. */
  command: string;
  /** Arguments before the toolhost command name: empty, or the entry script's absolute path. */
  args: string[];
  /** True when `toolhost` on PATH runs this installation. */
  onPath: boolean;
}

/** How to start this toolhost again; `entry` is the running script (process.argv[1]). */
export function selfInvocation(env: NodeJS.ProcessEnv, entry: string | undefined = process.argv[1]): Invocation {
  const running = entry === undefined ? undefined : realpathOrUndefined(entry);
  const onPath = toolhostOnPath(env);
  if (running === undefined || (onPath !== undefined && onPath === running)) return { command: COMMAND_NAME, args: [], onPath: onPath !== undefined };
  return { command: process.execPath, args: [running], onPath: false };
}

/** The invocation as one shell-ready prefix, e.g. `toolhost` or `/usr/bin/node /opt/toolhost/dist/src/cli/bin.js`. */
export function shellPrefix(invocation: Invocation): string {
  return [invocation.command, ...invocation.args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ');
}
