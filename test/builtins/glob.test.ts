import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GLOB_MAX_RESULTS, globTool } from '../../builtins/glob.ts';
import { callTool, createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

describe('glob', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
    await writeTestFile(workspace.root, 'README.md', '# readme');
    await writeTestFile(workspace.root, 'src/index.ts', 'x');
    await writeTestFile(workspace.root, 'src/util/strings.ts', 'x');
    await writeTestFile(workspace.root, 'src/util/strings.test.ts', 'x');
    await writeTestFile(workspace.root, 'src/style.css', 'x');
    await writeTestFile(workspace.root, '.github/workflows/ci.yml', 'x');
    await writeTestFile(workspace.root, 'node_modules/dep/index.ts', 'x');
    await writeTestFile(workspace.root, '.git/config.ts', 'x');
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const glob = (raw: Record<string, unknown>) => callTool(globTool, raw, workspace.context);
  const lines = (content: string) => content.split('\n');

  it('declares a read_only tool with described fields', () => {
    expect(globTool.permission).toBe('read_only');
    const properties = globTool.inputSchema['properties'] as Record<string, { description?: string }>;
    expect(properties['pattern']?.description).toBeTruthy();
    expect(properties['path']?.description).toBeTruthy();
  });

  it('matches across directories with **, sorted, skipping node_modules and .git', async () => {
    const result = await glob({ pattern: '**/*.ts' });
    expect(result.is_error).toBe(false);
    expect(lines(result.content)).toEqual(['src/index.ts', 'src/util/strings.test.ts', 'src/util/strings.ts']);
    expect(result.metadata).toMatchObject({ count: 3, truncated: false });
  });

  it('* does not cross directories', async () => {
    expect(lines((await glob({ pattern: '*' })).content)).toEqual(['README.md']);
    expect(lines((await glob({ pattern: 'src/*.ts' })).content)).toEqual(['src/index.ts']);
  });

  it('supports braces, a leading "./" and hidden files', async () => {
    expect(lines((await glob({ pattern: './src/**/*.{css,ts}' })).content)).toEqual([
      'src/index.ts',
      'src/style.css',
      'src/util/strings.test.ts',
      'src/util/strings.ts',
    ]);
    expect(lines((await glob({ pattern: '**/*.yml' })).content)).toEqual(['.github/workflows/ci.yml']);
  });

  it('supports extglobs and a leading "!" that negates the whole pattern', async () => {
    expect(lines((await glob({ pattern: 'src/@(index|style).*' })).content)).toEqual(['src/index.ts', 'src/style.css']);
    expect(lines((await glob({ pattern: '!**/*.ts' })).content)).toEqual(['.github/workflows/ci.yml', 'README.md', 'src/style.css']);
  });

  it('refuses a negated extglob by name (it cannot be matched in linear time)', async () => {
    const result = await glob({ pattern: 'src/!(index).ts' });
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/negated extglob such as "!\(\.\.\.\)"/);
  });

  it('matches relative to path, returning paths relative to the workspace root', async () => {
    const result = await glob({ pattern: '*.ts', path: 'src/util' });
    expect(lines(result.content)).toEqual(['src/util/strings.test.ts', 'src/util/strings.ts']);
  });

  it('matches a literal file path', async () => {
    expect(lines((await glob({ pattern: 'src/index.ts' })).content)).toEqual(['src/index.ts']);
  });

  it('searches inside node_modules when path points there', async () => {
    expect(lines((await glob({ pattern: '**/*.ts', path: 'node_modules' })).content)).toEqual(['node_modules/dep/index.ts']);
  });

  it('says when nothing matches (not an error)', async () => {
    const result = await glob({ pattern: '**/*.rs' });
    expect(result.is_error).toBe(false);
    expect(result.content).toMatch(/No files match/);
    expect(result.metadata).toMatchObject({ count: 0 });
  });

  it(`caps results at ${GLOB_MAX_RESULTS} with a note`, async () => {
    await Promise.all(Array.from({ length: GLOB_MAX_RESULTS + 3 }, (_, index) => writeTestFile(workspace.root, `many/f${index}.txt`, '')));
    const result = await glob({ pattern: 'many/*.txt' });
    expect(result.metadata).toMatchObject({ count: GLOB_MAX_RESULTS, truncated: true });
    expect(result.content).toMatch(/results truncated at 1000/);
  });

  it('refuses a missing base directory and a base that is a file', async () => {
    expect((await glob({ pattern: '*', path: 'nope' })).is_error).toBe(true);
    const file = await glob({ pattern: '*', path: 'README.md' });
    expect(file.is_error).toBe(true);
    expect(file.content).toMatch(/not a directory/);
  });

  describe('confinement', () => {
    it('refuses patterns with .. or an absolute start', async () => {
      const climbing = await glob({ pattern: '../**/*' });
      expect(climbing.is_error).toBe(true);
      expect(climbing.content).toMatch(/\.\./);
      expect((await glob({ pattern: 'src/../../outside/*' })).is_error).toBe(true);
      const absolute = await glob({ pattern: '/etc/*' });
      expect(absolute.is_error).toBe(true);
      expect(absolute.content).toMatch(/absolute/);
    });

    it('refuses a base path outside the workspace', async () => {
      for (const base of ['..', '/etc', workspace.outside]) {
        expect((await glob({ pattern: '*', path: base })).is_error).toBe(true);
      }
    });

    it('never returns files reached through symlinks pointing outside', async () => {
      await symlink(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, 'leak.txt'));
      await symlink(workspace.outside, path.join(workspace.root, 'outdir'));
      const result = await glob({ pattern: '**/*' });
      expect(result.content).not.toContain('leak.txt');
      expect(result.content).not.toContain('secret.txt');
      expect(result.content).not.toContain('outdir');
      const direct = await glob({ pattern: 'outdir/*' });
      expect(direct.is_error).toBe(true);
      expect(direct.content).not.toContain('secret.txt');
      expect((await glob({ pattern: '*', path: 'outdir' })).is_error).toBe(true);
    });

    it('returns symlinked files that stay inside, and does not loop on a link to an ancestor', async () => {
      await symlink('README.md', path.join(workspace.root, 'readme-alias.md'));
      await symlink('..', path.join(workspace.root, 'src', 'up'));
      const result = await glob({ pattern: '**/*.md' });
      expect(lines(result.content)).toEqual(['README.md', 'readme-alias.md']);
    });
  });
});
