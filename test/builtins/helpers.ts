import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSecretsResolver, silentLogger, type AnyTool, type ToolContext, type ToolResult } from '../../src/index.ts';

export interface TestWorkspace {
  /** The workspace root (real path). */
  root: string;
  /** A sibling directory outside the workspace, holding `secret.txt`. */
  outside: string;
  /** Parent temp directory holding both; removed by `cleanup`. */
  parent: string;
  context: ToolContext;
  cleanup(): Promise<void>;
}

let callCounter = 0;

export function createToolContext(workspaceRoot: string, overrides: Partial<ToolContext> = {}): ToolContext {
  callCounter += 1;
  return {
    workspaceRoot,
    permissionMode: 'execute',
    callId: `test-call-${callCounter}`,
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    logger: silentLogger(),
    secrets: createSecretsResolver({ env: {} }),
    ...overrides,
  };
}

/** A temp dir with `workspace/` (the root) and `outside/secret.txt` next to it. */
export async function createTestWorkspace(): Promise<TestWorkspace> {
  const parent = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-builtins-')));
  const root = path.join(parent, 'workspace');
  const outside = path.join(parent, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
  return {
    root,
    outside,
    parent,
    context: createToolContext(root),
    cleanup: () => rm(parent, { recursive: true, force: true }),
  };
}

/** Parses raw arguments with the tool's zod schema, then executes it (what the bridge will do). */
export async function callTool(tool: AnyTool, raw: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
  return tool.execute(tool.input.parse(raw), context);
}

/** Writes a file (creating parent directories) below `root`. */
export async function writeTestFile(root: string, relative: string, content: string | Uint8Array): Promise<string> {
  const full = path.join(root, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, content);
  return full;
}
