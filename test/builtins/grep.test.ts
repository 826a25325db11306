import { open, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GREP_MAX_LINE_CHARS, grepTool } from '../../builtins/grep.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

describe('grep', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
    await writeTestFile(workspace.root, 'src/a.ts', 'export function alpha() {}\nconst x = 1;\nexport function beta() {}\n');
    await writeTestFile(workspace.root, 'src/b.js', 'function gamma() {}\r\n// TODO: fix\r\n');
    await writeTestFile(workspace.root, 'docs/notes.md', 'Function names are listed here\n');
    await writeTestFile(workspace.root, 'node_modules/dep/index.ts', 'export function hidden() {}\n');
    await writeTestFile(workspace.root, '.git/HEAD.ts', 'export function gitInternal() {}\n');
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const grep = (raw: Record<string, unknown>) => callTool(grepTool, raw, workspace.context);
  const lines = (content: string) => content.split('\n');

  it('declares a read_only tool with defaults and described fields', () => {
    expect(grepTool.permission).toBe('read_only');
    expect(grepTool.input.parse({ pattern: 'x' })).toEqual({ pattern: 'x', path: '.', case_insensitive: false, max_results: 200 });
    const properties = grepTool.inputSchema['properties'] as Record<string, { description?: string }>;
    for (const field of ['pattern', 'path', 'include', 'case_insensitive', 'max_results']) expect(properties[field]?.description).toBeTruthy();
    expect(() => grepTool.input.parse({ pattern: 'x', max_results: 0 })).toThrow();
    expect(() => grepTool.input.parse({ pattern: 'x', max_results: 5000 })).toThrow();
  });

  it('prints path:line:text for every match, skipping node_modules and .git', async () => {
    const result = await grep({ pattern: 'function \\w+' });
    expect(result.is_error).toBe(false);
    expect(lines(result.content)).toEqual([
      'src/a.ts:1:export function alpha() {}',
      'src/a.ts:3:export function beta() {}',
      'src/b.js:1:function gamma() {}',
    ]);
    expect(result.metadata).toMatchObject({ matches: 3, files_with_matches: 2, truncated: false });
  });

  it('strips CR from CRLF lines in the output', async () => {
    const result = await grep({ pattern: 'TODO' });
    expect(result.content).toBe('src/b.js:2:// TODO: fix');
  });

  it('matches case-insensitively when asked', async () => {
    expect(lines((await grep({ pattern: '^function' })).content)).toEqual(['src/b.js:1:function gamma() {}']);
    const result = await grep({ pattern: '^function', case_insensitive: true });
    expect(lines(result.content)).toEqual(['docs/notes.md:1:Function names are listed here', 'src/b.js:1:function gamma() {}']);
  });

  it('filters files by name with include, at any depth', async () => {
    expect(lines((await grep({ pattern: 'function', include: '*.ts' })).content)).toEqual([
      'src/a.ts:1:export function alpha() {}',
      'src/a.ts:3:export function beta() {}',
    ]);
    expect(lines((await grep({ pattern: 'function', include: '*.{js,md}', case_insensitive: true })).content)).toHaveLength(2);
  });

  it('searches one directory or one file', async () => {
    expect(lines((await grep({ pattern: 'function', path: 'src', include: '*.js' })).content)).toEqual(['src/b.js:1:function gamma() {}']);
    expect(lines((await grep({ pattern: 'beta', path: 'src/a.ts' })).content)).toEqual(['src/a.ts:3:export function beta() {}']);
  });

  it('searches node_modules when path points inside it', async () => {
    expect((await grep({ pattern: 'hidden', path: 'node_modules' })).content).toBe('node_modules/dep/index.ts:1:export function hidden() {}');
  });

  it('stops at max_results and says the output is truncated', async () => {
    const result = await grep({ pattern: 'function', max_results: 2 });
    expect(result.metadata).toMatchObject({ matches: 2, truncated: true });
    expect(result.content).toMatch(/results truncated at 2 matches/);
    const exact = await grep({ pattern: 'function', max_results: 3 });
    expect(exact.metadata).toMatchObject({ matches: 3, truncated: false });
  });

  it('reports no matches without an error', async () => {
    const result = await grep({ pattern: 'does-not-occur-anywhere' });
    expect(result.is_error).toBe(false);
    expect(result.content).toMatch(/No matches/);
    expect(result.metadata).toMatchObject({ matches: 0 });
  });

  it('refuses an invalid regular expression with a hint', async () => {
    const result = await grep({ pattern: 'foo(' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/not a valid JavaScript regular expression/);
    expect(result.content).toMatch(/backslash/);
  });

  it('skips binary files', async () => {
    await writeTestFile(workspace.root, 'blob.bin', Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2])]));
    const result = await grep({ pattern: 'needle' });
    expect(result.content).toMatch(/No matches/);
    expect(result.metadata).toMatchObject({ skipped_binary: 1 });
  });

  it('skips files over 10 MB and says so', async () => {
    const handle = await open(path.join(workspace.root, 'huge.log'), 'w');
    await handle.write(`needle\n${'z'.repeat(10 * 1024 * 1024)}`);
    await handle.close();
    await writeTestFile(workspace.root, 'small.log', 'needle\n');
    const result = await grep({ pattern: 'needle' });
    expect(lines(result.content)[0]).toBe('small.log:1:needle');
    expect(result.content).toMatch(/1 file\(s\) over 10 MB were skipped/);
    expect(result.metadata).toMatchObject({ skipped_large: 1, matches: 1 });
  });

  it('shortens very long matching lines', async () => {
    await writeTestFile(workspace.root, 'min.js', `needle${'q'.repeat(2000)}`);
    const result = await grep({ pattern: 'needle' });
    expect(result.content.length).toBeLessThan(GREP_MAX_LINE_CHARS + 100);
    expect(result.content).toMatch(/line cut at 500 characters/);
  });

  it('refuses missing paths and include patterns that climb out', async () => {
    expect((await grep({ pattern: 'x', path: 'missing' })).is_error).toBe(true);
    expect((await grep({ pattern: 'x', include: '../*' })).is_error).toBe(true);
    expect((await grep({ pattern: 'x', include: '/etc/*' })).is_error).toBe(true);
  });

  it('refuses backreferences and lookaheads by name, since patterns run on a linear-time engine', async () => {
    const backreference = await grep({ pattern: '(\\w+) \\1' });
    expect(backreference.is_error).toBe(true);
    expect(backreference.content).toMatch(/backreference \(\\1\)/);
    expect(backreference.content).toMatch(/linear-time/);
    const lookahead = await grep({ pattern: 'function (?!beta)' });
    expect(lookahead.is_error).toBe(true);
    expect(lookahead.content).toMatch(/negative lookahead \(\(\?!beta\)\)/);
  });

  it('runs lookbehinds', async () => {
    expect(lines((await grep({ pattern: '(?<=function )b\\w+' })).content)).toEqual(['src/a.ts:3:export function beta() {}']);
    expect(lines((await grep({ pattern: '(?<!export )function' })).content)).toEqual(['src/b.js:1:function gamma() {}']);
  });

  it('matches an include with a "/" against the path below path', async () => {
    expect(lines((await grep({ pattern: 'function', include: 'src/*.ts' })).content)).toEqual([
      'src/a.ts:1:export function alpha() {}',
      'src/a.ts:3:export function beta() {}',
    ]);
    expect((await grep({ pattern: 'function', include: 'lib/*.ts' })).content).toMatch(/No matches/);
  });

  describe('confinement', () => {
    it('refuses ../, /etc/passwd and absolute paths outside', async () => {
      for (const target of ['..', '../outside/secret.txt', '/etc/passwd', path.join(workspace.outside, 'secret.txt')]) {
        const result = await grep({ pattern: 'SECRET|root', path: target });
        expect(result.is_error).toBe(true);
        expect(result.content).not.toContain('TOP SECRET');
      }
    });

    it('does not search files behind symlinks pointing outside', async () => {
      await symlink(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, 'leak.txt'));
      await symlink(workspace.outside, path.join(workspace.root, 'outdir'));
      const result = await grep({ pattern: 'SECRET' });
      expect(result.content).toMatch(/No matches/);
      expect(result.content).not.toContain('TOP SECRET');
      expect((await grep({ pattern: 'SECRET', path: 'leak.txt' })).is_error).toBe(true);
      expect((await grep({ pattern: 'SECRET', path: 'outdir' })).is_error).toBe(true);
    });

    it('searches symlinked files that stay inside, under the link name', async () => {
      await symlink('src/a.ts', path.join(workspace.root, 'alias.ts'));
      const result = await grep({ pattern: 'alpha' });
      expect(lines(result.content)).toEqual(['alias.ts:1:export function alpha() {}', 'src/a.ts:1:export function alpha() {}']);
    });
  });
});
