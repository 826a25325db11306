import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_DIR_MAX_ENTRIES, listDirTool } from '../../builtins/list-dir.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

describe('list_dir', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const list = (raw: Record<string, unknown>) => callTool(listDirTool, raw, workspace.context);

  it('declares a read_only tool whose path defaults to "."', () => {
    expect(listDirTool.permission).toBe('read_only');
    expect(listDirTool.input.parse({})).toEqual({ path: '.' });
    const properties = listDirTool.inputSchema['properties'] as Record<string, { description?: string }>;
    expect(properties['path']?.description).toBeTruthy();
  });

  it('lists the root sorted by name with type markers and sizes', async () => {
    await writeTestFile(workspace.root, 'b.txt', '12345');
    await writeTestFile(workspace.root, 'a-dir/inner.txt', 'x');
    await writeTestFile(workspace.root, '.hidden', '');
    await symlink('b.txt', path.join(workspace.root, 'c-link'));
    const result = await list({});
    expect(result.is_error).toBe(false);
    expect(result.content.split('\n')).toEqual([
      '. (workspace root)',
      '  .hidden  0 bytes',
      '  a-dir/',
      '  b.txt  5 bytes',
      '  c-link -> b.txt  (symlink)',
    ]);
    expect(result.metadata).toMatchObject({ path: '.', entries: 4, directories: 1, files: 2, symlinks: 1, truncated: false });
  });

  it('lists a subdirectory, not recursively', async () => {
    await writeTestFile(workspace.root, 'src/index.ts', 'x');
    await writeTestFile(workspace.root, 'src/deep/more.ts', 'x');
    const result = await list({ path: 'src' });
    expect(result.content.split('\n')).toEqual(['src/', '  deep/', '  index.ts  1 byte']);
  });

  it('says when a directory is empty', async () => {
    await mkdir(path.join(workspace.root, 'empty'));
    const result = await list({ path: 'empty' });
    expect(result.is_error).toBe(false);
    expect(result.content).toMatch(/empty directory/);
  });

  it(`caps the listing at ${LIST_DIR_MAX_ENTRIES} entries with a note`, async () => {
    const directory = path.join(workspace.root, 'many');
    await mkdir(directory);
    await Promise.all(
      Array.from({ length: LIST_DIR_MAX_ENTRIES + 5 }, (_, index) => writeTestFile(directory, `f${String(index).padStart(5, '0')}`, '')),
    );
    const result = await list({ path: 'many' });
    expect(result.metadata).toMatchObject({ entries: LIST_DIR_MAX_ENTRIES, total_entries: LIST_DIR_MAX_ENTRIES + 5, truncated: true });
    expect(result.content).toMatch(/5 more entries not shown/);
  });

  it('refuses a file and a missing directory with a hint', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'x');
    const file = await list({ path: 'a.txt' });
    expect(file.is_error).toBe(true);
    expect(file.content).toMatch(/read_file/);
    const missing = await list({ path: 'nope' });
    expect(missing.is_error).toBe(true);
    expect(missing.content).toMatch(/does not exist/);
  });

  describe('confinement', () => {
    it('refuses ../, /etc and absolute paths outside', async () => {
      for (const target of ['..', '../outside', '/etc', workspace.outside]) {
        const result = await list({ path: target });
        expect(result.is_error).toBe(true);
        expect(result.content).not.toContain('secret.txt');
      }
    });

    it('refuses a symlinked directory pointing outside', async () => {
      await symlink(workspace.outside, path.join(workspace.root, 'outdir'));
      const result = await list({ path: 'outdir' });
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/symbolic link/);
      expect(result.content).not.toContain('secret.txt');
    });

    it('shows a link pointing outside without revealing its target', async () => {
      await symlink(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, 'leak'));
      await symlink(path.join(workspace.outside, 'missing'), path.join(workspace.root, 'dangling'));
      const result = await list({});
      expect(result.content).toContain('leak -> [outside the workspace]');
      expect(result.content).toContain('dangling -> [outside the workspace]');
      expect(result.content).not.toContain(workspace.outside);
    });

    it('lists through a symlinked directory that stays inside', async () => {
      await writeTestFile(workspace.root, 'real/x.txt', 'x');
      await symlink('real', path.join(workspace.root, 'alias'));
      const result = await list({ path: 'alias' });
      expect(result.is_error).toBe(false);
      expect(result.content).toContain('x.txt');
      const root = await list({});
      expect(root.content).toContain('alias -> real  (symlink to directory)');
    });

    it('accepts an absolute path inside the workspace', async () => {
      await writeTestFile(workspace.root, 'sub/y.txt', 'y');
      const result = await list({ path: path.join(workspace.root, 'sub') });
      expect(result.content).toContain('y.txt');
    });
  });
});
