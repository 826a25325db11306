import { open, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_FILE_DEFAULT_LIMIT, READ_FILE_MAX_OUTPUT_CHARS, readFileTool } from '../../builtins/read-file.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

describe('read_file', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const read = (raw: Record<string, unknown>) => callTool(readFileTool, raw, workspace.context);

  it('declares a read_only tool with described fields', () => {
    expect(readFileTool.name).toBe('read_file');
    expect(readFileTool.permission).toBe('read_only');
    const properties = readFileTool.inputSchema['properties'] as Record<string, { description?: string }>;
    for (const field of ['path', 'offset', 'limit']) expect(properties[field]?.description).toBeTruthy();
    expect(readFileTool.inputSchema['required']).toEqual(['path']);
  });

  it('returns the exact content of a small file with line metadata', async () => {
    const content = 'line one\n  indented\r\nlast without newline';
    await writeTestFile(workspace.root, 'src/a.txt', content);
    const result = await read({ path: 'src/a.txt' });
    expect(result.is_error).toBe(false);
    expect(result.content).toBe(content);
    expect(result.metadata).toMatchObject({ path: 'src/a.txt', total_lines: 3, start_line: 1, end_line: 3, truncated: false });
  });

  it('counts a trailing newline as ending the last line, not starting a new one', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'a\nb\n');
    const result = await read({ path: 'a.txt' });
    expect(result.content).toBe('a\nb\n');
    expect(result.metadata).toMatchObject({ total_lines: 2, end_line: 2 });
  });

  it('reads a page with offset and limit and says how to continue', async () => {
    const lines = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`);
    await writeTestFile(workspace.root, 'ten.txt', `${lines.join('\n')}\n`);
    const result = await read({ path: 'ten.txt', offset: 3, limit: 4 });
    expect(result.is_error).toBe(false);
    expect(result.content).toBe('line 3\nline 4\nline 5\nline 6\n[showing lines 3-6 of 10; call read_file with offset=7 to continue]');
    expect(result.metadata).toMatchObject({ total_lines: 10, start_line: 3, end_line: 6, truncated: true });
  });

  it('marks the end of the file when an offset page reaches it', async () => {
    await writeTestFile(workspace.root, 'three.txt', 'a\nb\nc\n');
    const result = await read({ path: 'three.txt', offset: 2 });
    expect(result.content).toBe('b\nc\n[showing lines 2-3 of 3; end of file]');
    expect(result.metadata).toMatchObject({ start_line: 2, end_line: 3, truncated: true });
  });

  it(`returns at most ${READ_FILE_DEFAULT_LIMIT} lines by default`, async () => {
    const lines = Array.from({ length: READ_FILE_DEFAULT_LIMIT + 5 }, (_, index) => `${index + 1}`);
    await writeTestFile(workspace.root, 'long.txt', lines.join('\n'));
    const result = await read({ path: 'long.txt' });
    expect(result.metadata).toMatchObject({ end_line: READ_FILE_DEFAULT_LIMIT, total_lines: READ_FILE_DEFAULT_LIMIT + 5, truncated: true });
    expect(result.content).toContain(`offset=${READ_FILE_DEFAULT_LIMIT + 1}`);
    expect(result.content.startsWith('1\n2\n')).toBe(true);
  });

  it('stops at a whole line when the selection is too many characters', async () => {
    const line = `${'x'.repeat(999)}\n`;
    const count = Math.ceil((READ_FILE_MAX_OUTPUT_CHARS * 2) / line.length);
    await writeTestFile(workspace.root, 'wide.txt', line.repeat(count));
    const result = await read({ path: 'wide.txt' });
    const endLine = result.metadata?.['end_line'] as number;
    expect(endLine).toBe(Math.floor(READ_FILE_MAX_OUTPUT_CHARS / line.length));
    expect(result.content).toContain(`offset=${endLine + 1}`);
    expect(result.metadata?.['truncated']).toBe(true);
  });

  it('cuts a single line that alone is too long, and says so', async () => {
    await writeTestFile(workspace.root, 'minified.js', 'y'.repeat(READ_FILE_MAX_OUTPUT_CHARS + 100));
    const result = await read({ path: 'minified.js' });
    expect(result.is_error).toBe(false);
    expect(result.content).toMatch(/line 1 is longer than/);
    expect(result.metadata).toMatchObject({ truncated: true, end_line: 1 });
  });

  it('says when a file is empty', async () => {
    await writeTestFile(workspace.root, 'empty.txt', '');
    const result = await read({ path: 'empty.txt' });
    expect(result.is_error).toBe(false);
    expect(result.content).toMatch(/empty file/);
    expect(result.metadata).toMatchObject({ total_lines: 0, truncated: false });
  });

  it('refuses an offset past the end, naming the line count', async () => {
    await writeTestFile(workspace.root, 'three.txt', 'a\nb\nc\n');
    const result = await read({ path: 'three.txt', offset: 4 });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/has 3 lines/);
    expect((await read({ path: 'three.txt', offset: 2 })).is_error).toBe(false);
    await writeTestFile(workspace.root, 'empty.txt', '');
    expect((await read({ path: 'empty.txt', offset: 2 })).is_error).toBe(true);
  });

  it('rejects offset 0 and a non-integer limit at parse time', () => {
    expect(() => readFileTool.input.parse({ path: 'a', offset: 0 })).toThrow();
    expect(() => readFileTool.input.parse({ path: 'a', limit: 1.5 })).toThrow();
    expect(() => readFileTool.input.parse({ path: '' })).toThrow();
  });

  it('reports a missing file with what to do', async () => {
    const result = await read({ path: 'nope.txt' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/does not exist/);
    expect(result.content).toMatch(/list_dir|glob/);
  });

  it('refuses a directory', async () => {
    await writeTestFile(workspace.root, 'dir/x.txt', 'x');
    const result = await read({ path: 'dir' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/is a directory/);
  });

  it('refuses a binary file, giving its size', async () => {
    await writeTestFile(workspace.root, 'image.bin', Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    const result = await read({ path: 'image.bin' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/binary/);
    expect(result.content).toContain('5 bytes');
    expect(result.metadata).toMatchObject({ binary: true, size: 5 });
  });

  it('does not call a file binary when the NUL byte is after the first 8 KB', async () => {
    await writeTestFile(workspace.root, 'late-nul.txt', Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0])]));
    expect((await read({ path: 'late-nul.txt' })).is_error).toBe(false);
  });

  describe('files over 10 MB', () => {
    async function createLargeFile(): Promise<void> {
      const handle = await open(path.join(workspace.root, 'big.log'), 'w');
      const line = `${'z'.repeat(99)}\n`;
      const block = `first line\n${line.repeat(10 * 1024 * 11)}`; // ~11.3 MB
      await handle.write(block);
      await handle.close();
    }

    it('refuses a whole read, suggesting offset/limit or grep', async () => {
      await createLargeFile();
      const result = await read({ path: 'big.log' });
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/offset/);
      expect(result.content).toMatch(/grep/);
      expect(result.content).toMatch(/MB/);
    });

    it('reads a page of it when offset or limit is given', async () => {
      await createLargeFile();
      const result = await read({ path: 'big.log', offset: 1, limit: 2 });
      expect(result.is_error).toBe(false);
      expect(result.content.startsWith(`first line\n${'z'.repeat(99)}\n[showing lines 1-2`)).toBe(true);
      expect(result.metadata).toMatchObject({ start_line: 1, end_line: 2, truncated: true, total_lines: null });
    });

    it('refuses a large binary file', async () => {
      const handle = await open(path.join(workspace.root, 'big.bin'), 'w');
      await handle.write(Buffer.alloc(11 * 1024 * 1024));
      await handle.close();
      const result = await read({ path: 'big.bin', limit: 5 });
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/binary/);
    });
  });

  describe('confinement', () => {
    it('refuses ../ escapes', async () => {
      const result = await read({ path: '../outside/secret.txt' });
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/outside the workspace/);
      expect(result.content).not.toContain('TOP SECRET');
    });

    it('refuses /etc/passwd and absolute paths outside', async () => {
      expect((await read({ path: '/etc/passwd' })).is_error).toBe(true);
      const result = await read({ path: path.join(workspace.outside, 'secret.txt') });
      expect(result.is_error).toBe(true);
      expect(result.content).not.toContain('TOP SECRET');
    });

    it('accepts an absolute path inside the workspace', async () => {
      await writeTestFile(workspace.root, 'inside.txt', 'hello');
      const result = await read({ path: path.join(workspace.root, 'inside.txt') });
      expect(result).toMatchObject({ is_error: false, content: 'hello' });
    });

    it('refuses a symlink inside the workspace that points outside', async () => {
      await symlink(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, 'innocent.txt'));
      const result = await read({ path: 'innocent.txt' });
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/symbolic link/);
      expect(result.content).not.toContain('TOP SECRET');
    });

    it('refuses reading through a symlinked directory pointing outside', async () => {
      await symlink(workspace.outside, path.join(workspace.root, 'outdir'));
      const result = await read({ path: 'outdir/secret.txt' });
      expect(result.is_error).toBe(true);
      expect(result.content).not.toContain('TOP SECRET');
    });

    it('reads through a symlink that stays inside', async () => {
      await writeTestFile(workspace.root, 'real.txt', 'real content');
      await symlink('real.txt', path.join(workspace.root, 'alias.txt'));
      expect(await read({ path: 'alias.txt' })).toMatchObject({ is_error: false, content: 'real content' });
    });
  });
});
