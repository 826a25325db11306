import { readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../builtins/edit-file.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

describe('edit_file', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const edit = (raw: Record<string, unknown>) => callTool(editFileTool, raw, workspace.context);
  const contentOf = (relative: string) => readFile(path.join(workspace.root, relative), 'utf8');

  it('declares a write tool; replace_all defaults to false', () => {
    expect(editFileTool.permission).toBe('write');
    expect(editFileTool.input.parse({ path: 'a', old_string: 'x', new_string: 'y' })).toMatchObject({ replace_all: false });
    const properties = editFileTool.inputSchema['properties'] as Record<string, { description?: string }>;
    for (const field of ['path', 'old_string', 'new_string', 'replace_all']) expect(properties[field]?.description).toBeTruthy();
  });

  it('replaces a unique match exactly and reports the line', async () => {
    await writeTestFile(workspace.root, 'src/a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await edit({ path: 'src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' });
    expect(result.is_error).toBe(false);
    expect(await contentOf('src/a.ts')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(result.metadata).toMatchObject({ replacements: 1, first_line: 2, path: 'src/a.ts' });
    expect(result.content).toMatch(/line 2/);
  });

  it('inserts "$&" and "$1" in new_string literally', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'price: X\n');
    await edit({ path: 'a.txt', old_string: 'X', new_string: '$& $1 $$' });
    expect(await contentOf('a.txt')).toBe('price: $& $1 $$\n');
  });

  it('deletes text when new_string is empty', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'keep DELETE keep');
    await edit({ path: 'a.txt', old_string: ' DELETE', new_string: '' });
    expect(await contentOf('a.txt')).toBe('keep keep');
  });

  it('refuses an ambiguous match, saying how many and where, and changes nothing', async () => {
    const original = 'x = 1\ny = 2\nx = 1\nx = 1\n';
    await writeTestFile(workspace.root, 'a.txt', original);
    const result = await edit({ path: 'a.txt', old_string: 'x = 1', new_string: 'x = 9' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/matches 3 times/);
    expect(result.content).toMatch(/lines 1, 3, 4/);
    expect(result.content).toMatch(/replace_all/);
    expect(result.content).toMatch(/more surrounding/);
    expect(result.metadata).toMatchObject({ matches: 3, replacements: 0 });
    expect(await contentOf('a.txt')).toBe(original);
  });

  it('replaces every occurrence with replace_all', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'foo bar foo baz foo');
    const result = await edit({ path: 'a.txt', old_string: 'foo', new_string: 'qux', replace_all: true });
    expect(result.is_error).toBe(false);
    expect(result.metadata).toMatchObject({ replacements: 3 });
    expect(await contentOf('a.txt')).toBe('qux bar qux baz qux');
  });

  it('counts non-overlapping matches', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'aaaa');
    const result = await edit({ path: 'a.txt', old_string: 'aa', new_string: 'b', replace_all: true });
    expect(result.metadata).toMatchObject({ replacements: 2 });
    expect(await contentOf('a.txt')).toBe('bb');
  });

  it('reports text not found, telling the model to read the file and mind whitespace', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'function f() {\n  return 1;\n}\n');
    const result = await edit({ path: 'a.txt', old_string: 'function f() {\n    return 1;', new_string: 'x' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/not found/);
    expect(result.content).toMatch(/read_file/);
    expect(result.content).toMatch(/whitespace/);
  });

  it('hints at CRLF line endings when they are the reason', async () => {
    await writeTestFile(workspace.root, 'crlf.txt', 'one\r\ntwo\r\n');
    const result = await edit({ path: 'crlf.txt', old_string: 'one\ntwo', new_string: 'x' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/CRLF/);
    const fixed = await edit({ path: 'crlf.txt', old_string: 'one\r\ntwo', new_string: 'x' });
    expect(fixed.is_error).toBe(false);
    expect(await contentOf('crlf.txt')).toBe('x\r\n');
  });

  it('hints at leading/trailing whitespace when trimming would match', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'alpha beta\n');
    const result = await edit({ path: 'a.txt', old_string: 'alpha beta  ', new_string: 'x' });
    expect(result.content).toMatch(/leading\/trailing whitespace/);
  });

  it('refuses old_string equal to new_string', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'same');
    const result = await edit({ path: 'a.txt', old_string: 'same', new_string: 'same' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/identical/);
  });

  it('rejects an empty old_string at parse time', () => {
    expect(() => editFileTool.input.parse({ path: 'a', old_string: '', new_string: 'x' })).toThrow();
  });

  it('reports a missing file, pointing to write_file for new files', async () => {
    const result = await edit({ path: 'missing.txt', old_string: 'a', new_string: 'b' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/does not exist/);
    expect(result.content).toMatch(/write_file/);
  });

  it('refuses a directory and a binary file', async () => {
    await writeTestFile(workspace.root, 'dir/x', 'x');
    expect((await edit({ path: 'dir', old_string: 'a', new_string: 'b' })).content).toMatch(/directory/);
    await writeTestFile(workspace.root, 'b.bin', Buffer.from([97, 0, 98]));
    const binary = await edit({ path: 'b.bin', old_string: 'a', new_string: 'c' });
    expect(binary.is_error).toBe(true);
    expect(binary.content).toMatch(/binary/);
  });

  describe('confinement', () => {
    it('refuses ../ escapes, absolute outside paths and /etc/passwd', async () => {
      for (const target of ['../outside/secret.txt', path.join(workspace.outside, 'secret.txt'), '/etc/passwd']) {
        const result = await edit({ path: target, old_string: 'TOP', new_string: 'PWNED' });
        expect(result.is_error).toBe(true);
        expect(result.content).toMatch(/outside the workspace/);
      }
      expect(await readFile(path.join(workspace.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
    });

    it('refuses a symlink pointing outside and a path through a symlinked directory', async () => {
      await symlink(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, 'link.txt'));
      await symlink(workspace.outside, path.join(workspace.root, 'outdir'));
      expect((await edit({ path: 'link.txt', old_string: 'TOP', new_string: 'PWNED' })).is_error).toBe(true);
      expect((await edit({ path: 'outdir/secret.txt', old_string: 'TOP', new_string: 'PWNED' })).is_error).toBe(true);
      expect(await readFile(path.join(workspace.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
    });

    it('edits an absolute path inside the workspace', async () => {
      await writeTestFile(workspace.root, 'a.txt', 'old');
      const result = await edit({ path: path.join(workspace.root, 'a.txt'), old_string: 'old', new_string: 'new' });
      expect(result.is_error).toBe(false);
      expect(await contentOf('a.txt')).toBe('new');
    });
  });
});
