/**
 * Subcommands' own options with a real C component shaped like a cobra program
 * (test/fixtures/c/cobra-notes.c): at load toolhost runs `<sub> --help` for each subcommand, models
 * each command's options, refuses an option with a command that does not take it, and writes the
 * argv as cobra wants it (command first, then the root's persistent flag and the command's own).
 * The fixture itself exits 1 on a flag before the command or a flag its command does not know.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WasmToolDetails } from '../../src/extensions/wasm-tool.ts';
import type { ToolResult } from '../../src/result.ts';
import { createExtHost, fixture, tempRoot, type ExtHost, type TempRoot } from './helpers.ts';

let root: TempRoot;
let ext: ExtHost;

beforeAll(async () => {
  root = tempRoot();
  const tools = root.folder('tools');
  copyFileSync(fixture('cobra-notes'), join(tools, 'notes.wasm'));
  ext = await createExtHost({ extensionsDir: tools, cacheDir: root.folder('cache'), workspaceRoot: root.folder('workspace') });
}, 120_000);

afterAll(async () => {
  await ext.close();
  root.remove();
});

function textOf(result: ToolResult): string {
  return result.content;
}

function properties(): Record<string, { description?: string; enum?: string[]; type?: string }> {
  const tool = ext.host.registry.get('notes');
  expect(tool, 'notes is loaded').toBeDefined();
  return (tool?.inputSchema as { properties: Record<string, { description?: string }> }).properties;
}

describe('subcommand options from each subcommand’s --help', () => {
  it('models each command’s own options, without repeating the root’s global flag', () => {
    const spec = (ext.host.registry.get('notes')?.details as WasmToolDetails).spec;
    expect(spec.options_after_command).toBe(true);
    const own = Object.fromEntries(spec.subcommands.map((command) => [command.name, (command.options ?? []).map((option) => option.long)]));
    expect(own).toEqual({ add: ['priority', 'tag', 'text'], list: ['limit', 'tag'] });
    const props = properties();
    expect(Object.keys(props).sort()).toEqual(['command', 'limit', 'priority', 'tag', 'text', 'verbose']);
    expect(props.tag?.description).toMatch(/Only with command add, list\./);
    expect(props.limit?.description).toMatch(/Only with command list\./);
    expect(props.limit?.type).toBe('integer');
  });

  it('keeps each command option’s stated default as the schema default, without filling it into the argv', async () => {
    const props = properties() as Record<string, { description?: string; default?: unknown }>;
    expect(props['limit']).toMatchObject({ type: 'integer', default: 10, description: 'how many notes to list (default: 10). Only with command list.' });
    expect(props['priority']).toMatchObject({ default: 1 });
    expect(props['priority']?.description).toMatch(/\(default: 1\)\. Only with command add\.$/);
    const result = await ext.host.callTool('notes', { command: 'list' });
    expect(result.is_error, textOf(result)).toBe(false);
    expect(textOf(result).trim()).toBe('argv: list');
  });

  it('puts the command first, then the root flag and the command’s own options', async () => {
    const result = await ext.host.callTool('notes', { command: 'list', verbose: true, limit: 3, tag: 'work' });
    expect(result.is_error, textOf(result)).toBe(false);
    expect(textOf(result).trim()).toBe('argv: list --verbose --limit 3 --tag work');
    const added = await ext.host.callTool('notes', { command: 'add', text: 'buy milk', priority: 2 });
    expect(added.is_error, textOf(added)).toBe(false);
    expect(textOf(added).trim()).toBe('argv: add --priority 2 --text buy milk');
  });

  it('refuses an option with a command that does not take it, before the tool runs', async () => {
    const result = await ext.host.callTool('notes', { command: 'add', limit: 3 });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toMatch(/"limit" \(--limit\) is only valid with command list; the command is "add"/);
  });

  it('keeps the help lines it did not parse in details (none for this help)', () => {
    const details = ext.host.registry.get('notes')?.details as WasmToolDetails;
    expect(details.unparsed).toEqual([]);
  });
});
