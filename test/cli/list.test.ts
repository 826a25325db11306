import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, temporaryDirectory } from './run-cli.ts';

const BUILTIN_NAMES = ['edit_file', 'glob', 'grep', 'list_dir', 'process', 'read_file', 'run_code', 'search_tools', 'shell', 'write_file'];

describe('toolhost list', () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory();
  });
  afterAll(() => workspace.remove());

  it('prints a table: header, one row per tool with name, source, permission and description', async () => {
    const run = await runCli(['list'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    // One line on stderr says there is no extensions folder (none was given, and none is under the cwd).
    expect(run.stderr).toMatch(/^toolhost: no extensions folder: serving the built-in tools only \(.*\)\n$/);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SOURCE\s+PERMISSION\s+DESCRIPTION$/);
    const rows = lines.slice(1);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(BUILTIN_NAMES);
    const readRow = rows.find((row) => row.startsWith('read_file'));
    expect(readRow).toMatch(/^read_file\s+builtin\s+read_only\s+Read a text file/);
    // Columns line up: every row's SOURCE starts at the header's SOURCE column.
    const sourceColumn = (lines[0] ?? '').indexOf('SOURCE');
    for (const row of rows) expect(row.slice(sourceColumn, sourceColumn + 'builtin'.length)).toBe('builtin');
    // No colour codes when stdout is not a terminal.
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('--json prints the raw tool list', async () => {
    const run = await runCli(['list', '--json'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    const tools = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(tools.map((tool) => tool['name'])).toEqual(BUILTIN_NAMES);
    for (const tool of tools) {
      // outputSchema only where a tool declares the shape of its structured result (search_tools)
      const keys = ['description', 'inputSchema', 'name', 'network', ...(tool['name'] === 'search_tools' ? ['outputSchema'] : []), 'permission', 'source'];
      expect(Object.keys(tool).sort()).toEqual(keys);
      expect((tool['inputSchema'] as { type?: string }).type).toBe('object');
    }
  });

  it('--format raw is the same as --json', async () => {
    const [raw, json] = await Promise.all([runCli(['list', '--format', 'raw'], { cwd: workspace.path }), runCli(['list', '--json'], { cwd: workspace.path })]);
    expect(raw.exitCode).toBe(0);
    expect(JSON.parse(raw.stdout)).toEqual(JSON.parse(json.stdout));
  });

  it('--format anthropic prints {name, description, input_schema}', async () => {
    const run = await runCli(['list', '--format', 'anthropic'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    const tools = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(tools).toHaveLength(BUILTIN_NAMES.length);
    expect(tools[0]).toHaveProperty('input_schema');
    expect(tools[0]).toHaveProperty('name', 'edit_file');
  });

  it('--format openai prints function tools', async () => {
    const run = await runCli(['list', '--format', 'openai'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    const tools = JSON.parse(run.stdout) as { type: string; function: { name: string; parameters: unknown } }[];
    expect(tools.map((tool) => tool.type)).toEqual(BUILTIN_NAMES.map(() => 'function'));
    expect(tools.map((tool) => tool.function.name)).toEqual(BUILTIN_NAMES);
  });

  it('--format gemini prints function declarations', async () => {
    const run = await runCli(['list', '--format', 'gemini'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    const tools = JSON.parse(run.stdout) as { name: string; parameters?: unknown }[];
    expect(tools.map((tool) => tool.name)).toEqual(BUILTIN_NAMES);
    expect(tools[0]).toHaveProperty('parameters');
  });

  it('--format mcp prints MCP tools with inputSchema and annotations', async () => {
    const run = await runCli(['list', '--format', 'mcp'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    const tools = JSON.parse(run.stdout) as { name: string; inputSchema: unknown; annotations?: Record<string, unknown> }[];
    expect(tools.map((tool) => tool.name)).toEqual(BUILTIN_NAMES);
    expect(tools.find((tool) => tool.name === 'read_file')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('rejects an unknown --format with exit 2 and the allowed choices', async () => {
    const run = await runCli(['list', '--format', 'cohere'], { cwd: workspace.path });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('raw, anthropic, openai, gemini, mcp');
  });

  it('--permission-mode read_only hides the tools that need more', async () => {
    const run = await runCli(['list', '--json', '--permission-mode', 'read_only'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    const names = (JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(['glob', 'grep', 'list_dir', 'read_file', 'run_code', 'search_tools']);
  });

  it('rejects an unknown --permission-mode with exit 2', async () => {
    const run = await runCli(['list', '--permission-mode', 'root'], { cwd: workspace.path });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--permission-mode.*'none' \| 'read_only' \| 'write' \| 'execute'/);
  });

  it('rejects a --workspace that does not exist with exit 2', async () => {
    const run = await runCli(['list', '--workspace', join(workspace.path, 'missing')], { cwd: workspace.path });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no such directory');
  });

  it('accepts an existing --workspace and an empty --extensions folder', async () => {
    mkdirSync(join(workspace.path, 'tools'), { recursive: true });
    const run = await runCli(['list', '--json', '--workspace', '.', '--extensions', 'tools'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    expect((JSON.parse(run.stdout) as unknown[]).length).toBe(BUILTIN_NAMES.length);
  });
});
