/**
 * Safety details of the built-in file tools beyond path confinement: a FIFO planted in the workspace
 * never hangs a call (every open is O_NONBLOCK and checked with fstat before reading), writes keep the
 * old file's permission bits and leave no temp files behind, and the directory walk hands out files
 * that are already open, so renaming a walked name to a symlink pointing outside cannot redirect the read.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../builtins/edit-file.ts';
import { globTool } from '../../builtins/glob.ts';
import { grepTool } from '../../builtins/grep.ts';
import { walkFiles } from '../../builtins/internal/walk.ts';
import { listDirTool } from '../../builtins/list-dir.ts';
import { readFileTool } from '../../builtins/read-file.ts';
import { writeFileTool } from '../../builtins/write-file.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createTestWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

function makeFifo(relative: string): void {
  const made = spawnSync('mkfifo', [path.join(workspace.root, relative)]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
}

describe('a FIFO planted in the workspace', () => {
  it('is refused by read_file, edit_file and write_file without hanging, and listed as a special file', async () => {
    makeFifo('pipe');
    const read = await callTool(readFileTool, { path: 'pipe' }, workspace.context);
    expect(read.is_error).toBe(true);
    expect(read.content).toMatch(/not a regular file/);
    const edited = await callTool(editFileTool, { path: 'pipe', old_string: 'a', new_string: 'b' }, workspace.context);
    expect(edited.is_error).toBe(true);
    expect(edited.content).toMatch(/not a regular file/);
    const written = await callTool(writeFileTool, { path: 'pipe', content: 'x' }, workspace.context);
    expect(written.is_error).toBe(true);
    expect(written.content).toMatch(/not a regular file/);
    expect(fs.lstatSync(path.join(workspace.root, 'pipe')).isFIFO()).toBe(true);
    const listed = await callTool(listDirTool, {}, workspace.context);
    expect(listed.content).toContain('pipe  (special file)');
  });

  it('is skipped by grep and glob walking the tree, and by a symlink pointing at it', async () => {
    makeFifo('pipe');
    fs.symlinkSync('pipe', path.join(workspace.root, 'pipe-link'));
    await writeTestFile(workspace.root, 'a.txt', 'needle\n');
    const found = await callTool(grepTool, { pattern: 'needle' }, workspace.context);
    expect(found).toMatchObject({ is_error: false, content: 'a.txt:1:needle' });
    const globbed = await callTool(globTool, { pattern: '**/*' }, workspace.context);
    expect(globbed.content.split('\n')).toEqual(['a.txt']);
  });
});

describe('durable writes', () => {
  it('write_file and edit_file keep the permission bits of the file they replace', async () => {
    const file = await writeTestFile(workspace.root, 'script.sh', '#!/bin/sh\necho old\n');
    fs.chmodSync(file, 0o750);
    expect((await callTool(writeFileTool, { path: 'script.sh', content: '#!/bin/sh\necho new\n' }, workspace.context)).is_error).toBe(false);
    expect(fs.statSync(file).mode & 0o7777).toBe(0o750);
    fs.chmodSync(file, 0o604);
    expect((await callTool(editFileTool, { path: 'script.sh', old_string: 'new', new_string: 'edited' }, workspace.context)).is_error).toBe(false);
    expect(fs.statSync(file).mode & 0o7777).toBe(0o604);
    expect(fs.readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho edited\n');
  });

  it('replaces the file (a new inode) and leaves no temp file behind, also when the write is refused', async () => {
    const file = await writeTestFile(workspace.root, 'dir/a.txt', 'old\n');
    const before = fs.statSync(file).ino;
    await callTool(writeFileTool, { path: 'dir/a.txt', content: 'new\n' }, workspace.context);
    expect(fs.statSync(file).ino).not.toBe(before);
    await callTool(editFileTool, { path: 'dir/a.txt', old_string: 'new', new_string: 'newer' }, workspace.context);
    fs.mkdirSync(path.join(workspace.root, 'dir', 'sub'));
    expect((await callTool(writeFileTool, { path: 'dir/sub', content: 'x' }, workspace.context)).is_error).toBe(true);
    expect(fs.readdirSync(path.join(workspace.root, 'dir')).sort()).toEqual(['a.txt', 'sub']);
    expect(fs.readFileSync(file, 'utf8')).toBe('newer\n');
  });

  it('replaces a symlink that stays inside by writing its target, and never writes through a swapped-in link', async () => {
    await writeTestFile(workspace.root, 'target.txt', 'old');
    fs.symlinkSync('target.txt', path.join(workspace.root, 'alias.txt'));
    const result = await callTool(writeFileTool, { path: 'alias.txt', content: 'new' }, workspace.context);
    expect(result.metadata).toMatchObject({ path: 'target.txt' });
    expect(fs.lstatSync(path.join(workspace.root, 'alias.txt')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(workspace.root, 'target.txt'), 'utf8')).toBe('new');
  });
});

describe('the directory walk', () => {
  it('yields files already open: renaming a walked name to an outside symlink cannot redirect the read', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'inside a\n');
    await writeTestFile(workspace.root, 'b.txt', 'inside b\n');
    const contents: string[] = [];
    for await (const file of walkFiles({ rootReal: workspace.root, startReal: workspace.root })) {
      // Between the walk's check and the consumer's read, the name now points outside.
      fs.rmSync(path.join(workspace.root, file.relative));
      fs.symlinkSync(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, file.relative));
      contents.push(fs.readFileSync(file.real, 'utf8'));
    }
    expect(contents).toEqual(['inside a\n', 'inside b\n']);
  });

  it('does not descend a directory swapped for an outside symlink after it was listed', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'a\n');
    await writeTestFile(workspace.root, 'sub/inner.txt', 'inner\n');
    const seen: string[] = [];
    for await (const file of walkFiles({ rootReal: workspace.root, startReal: workspace.root })) {
      seen.push(file.relative);
      if (file.relative === 'a.txt') {
        fs.renameSync(path.join(workspace.root, 'sub'), path.join(workspace.root, 'moved'));
        fs.symlinkSync(workspace.outside, path.join(workspace.root, 'sub'));
      }
    }
    expect(seen).toEqual(['a.txt']);
  });

  it('yields a start that is a file as that file alone', async () => {
    await writeTestFile(workspace.root, 'src/one.ts', 'one\n');
    const walked = [];
    for await (const file of walkFiles({ rootReal: workspace.root, startReal: path.join(workspace.root, 'src/one.ts') })) {
      walked.push({ relative: file.relative, fromStart: file.fromStart, size: file.size, content: fs.readFileSync(file.real, 'utf8') });
    }
    expect(walked).toEqual([{ relative: 'src/one.ts', fromStart: 'one.ts', size: 4, content: 'one\n' }]);
  });
});
