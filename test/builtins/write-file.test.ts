import { access, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileTool } from '../../builtins/write-file.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

async function exists(file: string): Promise<boolean> {
  return access(file).then(() => true, () => false);
}

describe('write_file', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const write = (raw: Record<string, unknown>) => callTool(writeFileTool, raw, workspace.context);

  it('declares a write tool with described fields', () => {
    expect(writeFileTool.permission).toBe('write');
    const properties = writeFileTool.inputSchema['properties'] as Record<string, { description?: string }>;
    expect(properties['path']?.description).toBeTruthy();
    expect(properties['content']?.description).toBeTruthy();
  });

  it('creates a file and its missing parent directories', async () => {
    const result = await write({ path: 'a/b/c/new.txt', content: 'héllo\n' });
    expect(result.is_error).toBe(false);
    expect(await readFile(path.join(workspace.root, 'a/b/c/new.txt'), 'utf8')).toBe('héllo\n');
    expect(result.metadata).toMatchObject({ path: 'a/b/c/new.txt', bytes_written: 7, created: true, overwritten: false });
    expect(result.content).toMatch(/^Created "a\/b\/c\/new.txt"/);
  });

  it('overwrites an existing file and says so', async () => {
    await writeTestFile(workspace.root, 'x.txt', 'old content that is longer');
    const result = await write({ path: 'x.txt', content: 'new' });
    expect(result.metadata).toMatchObject({ created: false, overwritten: true, bytes_written: 3 });
    expect(result.content).toMatch(/^Overwrote/);
    expect(await readFile(path.join(workspace.root, 'x.txt'), 'utf8')).toBe('new');
  });

  it('writes an empty file', async () => {
    const result = await write({ path: 'empty.txt', content: '' });
    expect(result.metadata).toMatchObject({ bytes_written: 0, created: true });
    expect(await readFile(path.join(workspace.root, 'empty.txt'), 'utf8')).toBe('');
  });

  it('refuses to write over a directory', async () => {
    await writeTestFile(workspace.root, 'dir/inner.txt', 'x');
    const result = await write({ path: 'dir', content: 'x' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/is a directory/);
    expect(await readFile(path.join(workspace.root, 'dir/inner.txt'), 'utf8')).toBe('x');
  });

  it('refuses the workspace root itself', async () => {
    const result = await write({ path: '.', content: 'x' });
    expect(result.is_error).toBe(true);
  });

  it('reports a parent that is a file', async () => {
    await writeTestFile(workspace.root, 'file.txt', 'x');
    const result = await write({ path: 'file.txt/child.txt', content: 'x' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/file\.txt/);
  });

  describe('confinement', () => {
    it('refuses ../ escapes and creates nothing outside', async () => {
      const result = await write({ path: '../outside/pwned.txt', content: 'x' });
      expect(result.is_error).toBe(true);
      expect(await exists(path.join(workspace.outside, 'pwned.txt'))).toBe(false);
    });

    it('refuses absolute paths outside, including /etc/passwd', async () => {
      expect((await write({ path: '/etc/passwd', content: 'x' })).is_error).toBe(true);
      const result = await write({ path: path.join(workspace.outside, 'secret.txt'), content: 'overwritten' });
      expect(result.is_error).toBe(true);
      expect(await readFile(path.join(workspace.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
    });

    it('accepts an absolute path inside the workspace', async () => {
      const result = await write({ path: path.join(workspace.root, 'abs.txt'), content: 'ok' });
      expect(result.is_error).toBe(false);
      expect(await readFile(path.join(workspace.root, 'abs.txt'), 'utf8')).toBe('ok');
    });

    it('refuses to write through a symlinked file pointing outside', async () => {
      await symlink(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, 'link.txt'));
      const result = await write({ path: 'link.txt', content: 'overwritten' });
      expect(result.is_error).toBe(true);
      expect(await readFile(path.join(workspace.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
    });

    it('refuses a dangling symlink that would create a file outside', async () => {
      await symlink(path.join(workspace.outside, 'created.txt'), path.join(workspace.root, 'dangling.txt'));
      const result = await write({ path: 'dangling.txt', content: 'x' });
      expect(result.is_error).toBe(true);
      expect(await exists(path.join(workspace.outside, 'created.txt'))).toBe(false);
    });

    it('refuses writing into a symlinked directory pointing outside, even into new subdirectories', async () => {
      await symlink(workspace.outside, path.join(workspace.root, 'outdir'));
      expect((await write({ path: 'outdir/new.txt', content: 'x' })).is_error).toBe(true);
      expect((await write({ path: 'outdir/sub/new.txt', content: 'x' })).is_error).toBe(true);
      expect(await exists(path.join(workspace.outside, 'new.txt'))).toBe(false);
      expect(await exists(path.join(workspace.outside, 'sub'))).toBe(false);
    });

    it('writes through a symlink that stays inside, to its target', async () => {
      await writeTestFile(workspace.root, 'target.txt', 'old');
      await symlink('target.txt', path.join(workspace.root, 'alias.txt'));
      const result = await write({ path: 'alias.txt', content: 'new' });
      expect(result.metadata).toMatchObject({ path: 'target.txt', overwritten: true });
      expect(await readFile(path.join(workspace.root, 'target.txt'), 'utf8')).toBe('new');
    });
  });
});
