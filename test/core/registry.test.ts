import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolHostError } from '../../src/errors.ts';
import type { PermissionLevel } from '../../src/permission.ts';
import { ToolRegistry, type RegistryChange, type RegistryCollision } from '../../src/registry.ts';
import { textResult } from '../../src/result.ts';
import { defineTool, type AnyTool, type ToolSource } from '../../src/tool.ts';
import { isValidToolName, sanitizeToolName } from '../../src/tool-name.ts';

function makeTool(name: string, options: { source?: ToolSource; permission?: PermissionLevel; marker?: string } = {}): AnyTool {
  return defineTool({
    name,
    description: `tool ${name}`,
    source: options.source ?? 'builtin',
    permission: options.permission ?? 'none',
    input: z.object({}),
    secretParams: [],
    execute: async () => textResult(options.marker ?? name),
  });
}

describe('tool names', () => {
  it('accepts the provider-safe pattern only', () => {
    expect(isValidToolName('read_file')).toBe(true);
    expect(isValidToolName('a-b_C9')).toBe(true);
    expect(isValidToolName('x'.repeat(64))).toBe(true);
    expect(isValidToolName('x'.repeat(65))).toBe(false);
    expect(isValidToolName('')).toBe(false);
    expect(isValidToolName('has space')).toBe(false);
    expect(isValidToolName('dot.ted')).toBe(false);
    expect(() => makeTool('bad name')).toThrow(ToolHostError);
  });

  it('sanitizes names derived from files and help text', () => {
    expect(sanitizeToolName('word-count.wasm')).toBe('word-count');
    expect(sanitizeToolName('my tool (v2)')).toBe('my_tool_v2');
    expect(sanitizeToolName('...')).toBe('tool');
    expect(sanitizeToolName('y'.repeat(100))).toHaveLength(64);
  });
});

describe('ToolRegistry', () => {
  it('adds, replaces, removes and emits change events', () => {
    const registry = new ToolRegistry();
    const changes: RegistryChange['type'][] = [];
    registry.on('change', (change) => changes.push(change.type));
    const first = makeTool('alpha', { source: 'wasm', marker: 'v1' });
    const second = makeTool('alpha', { source: 'wasm', marker: 'v2' });
    expect(registry.add(first).ok).toBe(true);
    expect(registry.replace(second).ok).toBe(true);
    expect(registry.get('alpha')).toBe(second);
    expect(registry.remove('alpha', first)).toBe(false);
    expect(registry.remove('alpha')).toBe(true);
    expect(registry.remove('alpha')).toBe(false);
    expect(changes).toEqual(['added', 'updated', 'removed']);
  });

  it('lets built-ins win collisions, in either order, and reports them', () => {
    const collisions: RegistryCollision[] = [];
    const builtinFirst = new ToolRegistry();
    builtinFirst.on('collision', (collision) => collisions.push(collision));
    const builtin = makeTool('read_file');
    const wasm = makeTool('read_file', { source: 'wasm' });
    builtinFirst.add(builtin);
    expect(builtinFirst.add(wasm).ok).toBe(false);
    expect(builtinFirst.replace(wasm).ok).toBe(false);
    expect(builtinFirst.get('read_file')).toBe(builtin);

    const wasmFirst = new ToolRegistry();
    wasmFirst.on('collision', (collision) => collisions.push(collision));
    wasmFirst.add(wasm);
    wasmFirst.add(builtin);
    expect(wasmFirst.get('read_file')).toBe(builtin);
    expect(collisions).toHaveLength(3);
    expect(collisions.every((collision) => collision.kept === builtin && collision.rejected === wasm)).toBe(true);
    expect(collisions[0]?.reason).toMatch(/built-ins win/);
  });

  it('keeps the first of two wasm tools with one name', () => {
    const registry = new ToolRegistry();
    const first = makeTool('dup', { source: 'wasm' });
    registry.add(first);
    const outcome = registry.add(makeTool('dup', { source: 'wasm' }));
    expect(outcome.ok).toBe(false);
    expect(registry.get('dup')).toBe(first);
  });

  it('hides and refuses tools above the permission mode', () => {
    const registry = new ToolRegistry({ permissionMode: 'read_only' });
    registry.add(makeTool('reader', { permission: 'read_only' }));
    registry.add(makeTool('writer', { permission: 'write' }));
    registry.add(makeTool('runner', { permission: 'execute' }));
    expect(registry.list().map((tool) => tool.name)).toEqual(['reader']);
    const refused = registry.lookup('runner');
    expect(refused.found).toBe(false);
    expect(refused.found === false && refused.reason).toBe('permission');
    expect(refused.found === false && refused.message).toMatch(/needs permission "execute".*"read_only" mode/);
    expect(registry.lookup('reader').found).toBe(true);
  });

  it('applies include and exclude glob lists (exclude wins)', () => {
    const registry = new ToolRegistry({ include: ['file_*', 'grep'], exclude: ['*_delete'] });
    for (const name of ['file_read', 'file_delete', 'grep', 'shell']) registry.add(makeTool(name));
    expect(registry.list().map((tool) => tool.name)).toEqual(['file_read', 'grep']);
    const excluded = registry.lookup('shell');
    expect(excluded.found === false && excluded.reason).toBe('excluded');
  });

  it('suggests names a typo away (edit distance), closest first, not only substrings', () => {
    const registry = new ToolRegistry();
    for (const name of ['read_file', 'write_file', 'edit_file', 'list_dir', 'grep', 'glob', 'shell']) registry.add(makeTool(name));
    const message = (name: string): string => {
      const lookup = registry.lookup(name);
      return lookup.found ? '' : lookup.message;
    };
    expect(message('read_fle')).toMatch(/^Unknown tool "read_fle"\. Did you mean "read_file"\?/);
    expect(message('wirte_file')).toMatch(/Did you mean "write_file"\?/);
    expect(message('gerp')).toMatch(/Did you mean "grep"\?/);
    expect(message('shel')).toMatch(/Did you mean "shell"\?/);
    expect(message('delete_everything')).not.toMatch(/Did you mean/);
    // a caller's huge name is not compared letter by letter, and gets no suggestion
    expect(message('x'.repeat(100_000))).not.toMatch(/Did you mean/);
  });

  it('explains an unknown tool and suggests close names', () => {
    const registry = new ToolRegistry();
    registry.add(makeTool('read_file'));
    const lookup = registry.lookup('read');
    expect(lookup.found === false && lookup.message).toBe('Unknown tool "read". Did you mean "read_file"? Available tools: read_file.');
  });

  it('lists sorted by name', () => {
    const registry = new ToolRegistry();
    for (const name of ['c', 'a', 'b']) registry.add(makeTool(name));
    expect(registry.list().map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
  });
});
