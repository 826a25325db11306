import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isInsideDirectory,
  realWorkspaceRoot,
  resolveWorkspacePath,
  toWorkspaceRelative,
  type WorkspacePathResolution,
} from '../../builtins/internal/workspace.ts';
import { createTestWorkspace, writeTestFile, type TestWorkspace } from './helpers.ts';

function expectInside(resolution: WorkspacePathResolution): { real: string; relative: string; exists: boolean } {
  if (!resolution.ok) throw new Error(`expected the path to be accepted, got: ${resolution.message}`);
  return resolution.path;
}

function expectRefused(resolution: WorkspacePathResolution): string {
  if (resolution.ok) throw new Error(`expected the path to be refused, got ${resolution.path.real}`);
  return resolution.message;
}

describe('isInsideDirectory', () => {
  it('accepts the directory itself and paths below it', () => {
    expect(isInsideDirectory('/a/b', '/a/b')).toBe(true);
    expect(isInsideDirectory('/a/b', '/a/b/c')).toBe(true);
    expect(isInsideDirectory('/', '/anything')).toBe(true);
  });

  it('rejects siblings sharing a name prefix and parents', () => {
    expect(isInsideDirectory('/a/b', '/a/bc')).toBe(false);
    expect(isInsideDirectory('/a/b', '/a/b-other/x')).toBe(false);
    expect(isInsideDirectory('/a/b', '/a')).toBe(false);
  });
});

describe('toWorkspaceRelative', () => {
  it('gives "." for the root and slash-separated paths below it', () => {
    expect(toWorkspaceRelative('/w', '/w')).toBe('.');
    expect(toWorkspaceRelative('/w', '/w/a/b.txt')).toBe('a/b.txt');
  });
});

describe('resolveWorkspacePath', () => {
  let workspace: TestWorkspace;
  beforeEach(async () => {
    workspace = await createTestWorkspace();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('resolves an existing relative file', async () => {
    await writeTestFile(workspace.root, 'src/a.ts', 'x');
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, 'src/a.ts'));
    expect(resolved).toMatchObject({ real: path.join(workspace.root, 'src/a.ts'), relative: 'src/a.ts', exists: true });
  });

  it('resolves "." and "" to the root', async () => {
    expect(expectInside(await resolveWorkspacePath(workspace.root, '.'))).toMatchObject({ relative: '.', exists: true });
    expect(expectInside(await resolveWorkspacePath(workspace.root, ''))).toMatchObject({ relative: '.', exists: true });
  });

  it('resolves a path that does not exist yet (several missing levels)', async () => {
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, 'new/deeper/file.txt'));
    expect(resolved).toMatchObject({ real: path.join(workspace.root, 'new/deeper/file.txt'), relative: 'new/deeper/file.txt', exists: false });
  });

  it('accepts ".." that stays inside the workspace', async () => {
    await mkdir(path.join(workspace.root, 'a'));
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, 'a/../b.txt'));
    expect(resolved.relative).toBe('b.txt');
  });

  it('accepts an absolute path inside the workspace', async () => {
    await writeTestFile(workspace.root, 'a.txt', 'x');
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, path.join(workspace.root, 'a.txt')));
    expect(resolved).toMatchObject({ relative: 'a.txt', exists: true });
  });

  it('refuses ".." escapes, with a message naming the path and what to do', async () => {
    const message = expectRefused(await resolveWorkspacePath(workspace.root, '../outside/secret.txt'));
    expect(message).toContain('../outside/secret.txt');
    expect(message).toMatch(/outside the workspace/);
    expect(message).toMatch(/relative to the workspace root/);
    expectRefused(await resolveWorkspacePath(workspace.root, '..'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'a/../../x'));
  });

  it('refuses absolute paths outside the workspace', async () => {
    expectRefused(await resolveWorkspacePath(workspace.root, '/etc/passwd'));
    expectRefused(await resolveWorkspacePath(workspace.root, path.join(workspace.outside, 'secret.txt')));
    expectRefused(await resolveWorkspacePath(workspace.root, '/'));
  });

  it('refuses a sibling directory whose name starts with the root name', async () => {
    await mkdir(`${workspace.root}-evil`);
    await writeFile(`${workspace.root}-evil/x`, 'x');
    expectRefused(await resolveWorkspacePath(workspace.root, `${workspace.root}-evil/x`));
    expectRefused(await resolveWorkspacePath(workspace.root, '../workspace-evil/x'));
  });

  it('refuses a symlinked file pointing outside', async () => {
    await symlink(path.join(workspace.outside, 'secret.txt'), path.join(workspace.root, 'link.txt'));
    const message = expectRefused(await resolveWorkspacePath(workspace.root, 'link.txt'));
    expect(message).toMatch(/symbolic link/);
  });

  it('refuses paths through a symlinked directory pointing outside, existing or not', async () => {
    await symlink(workspace.outside, path.join(workspace.root, 'out'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'out'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'out/secret.txt'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'out/new-file.txt'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'out/new/deeper/file.txt'));
  });

  it('refuses a relative symlink climbing out of the workspace', async () => {
    await mkdir(path.join(workspace.root, 'nested'));
    await symlink('../../outside', path.join(workspace.root, 'nested', 'up'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'nested/up/secret.txt'));
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    await symlink(path.join(workspace.outside, 'created-by-attack.txt'), path.join(workspace.root, 'dangling'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'dangling'));
    await symlink(path.join(workspace.outside, 'missing-dir'), path.join(workspace.root, 'dangling-dir'));
    expectRefused(await resolveWorkspacePath(workspace.root, 'dangling-dir/file.txt'));
  });

  it('follows a dangling symlink that points inside to where the file would be created', async () => {
    await symlink('target.txt', path.join(workspace.root, 'pending'));
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, 'pending'));
    expect(resolved).toMatchObject({ real: path.join(workspace.root, 'target.txt'), exists: false });
  });

  it('accepts symlinks that stay inside the workspace and reports the real location', async () => {
    await writeTestFile(workspace.root, 'real/file.txt', 'x');
    await symlink('real', path.join(workspace.root, 'alias'));
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, 'alias/file.txt'));
    expect(resolved).toMatchObject({ real: path.join(workspace.root, 'real/file.txt'), relative: 'real/file.txt', exists: true });
  });

  it('does not let "link/.." climb through a symlinked directory (paths are normalized first)', async () => {
    await mkdir(path.join(workspace.outside, 'deep'));
    await symlink(path.join(workspace.outside, 'deep'), path.join(workspace.root, 'deeplink'));
    // Lexically "deeplink/../secret.txt" is "secret.txt" inside the workspace: that is what gets used.
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, 'deeplink/../secret.txt'));
    expect(resolved.real).toBe(path.join(workspace.root, 'secret.txt'));
    expect(resolved.exists).toBe(false);
  });

  it('refuses symlink loops with a message', async () => {
    await symlink('loop-b', path.join(workspace.root, 'loop-a'));
    await symlink('loop-a', path.join(workspace.root, 'loop-b'));
    const message = expectRefused(await resolveWorkspacePath(workspace.root, 'loop-a/x'));
    expect(message).toMatch(/loop/);
  });

  it('works when the workspace root itself is reached through a symlink', async () => {
    const alias = path.join(workspace.parent, 'alias-root');
    await symlink(workspace.root, alias);
    await writeTestFile(workspace.root, 'a.txt', 'x');
    expect(expectInside(await resolveWorkspacePath(alias, 'a.txt')).real).toBe(path.join(workspace.root, 'a.txt'));
    // Absolute paths are accepted in either spelling of the root.
    expect(expectInside(await resolveWorkspacePath(alias, path.join(alias, 'a.txt'))).relative).toBe('a.txt');
    expect(expectInside(await resolveWorkspacePath(alias, path.join(workspace.root, 'a.txt'))).relative).toBe('a.txt');
    expectRefused(await resolveWorkspacePath(alias, '../outside/secret.txt'));
    expect(await realWorkspaceRoot(alias)).toBe(workspace.root);
  });

  it('refuses a NUL byte in the path', async () => {
    expect(expectRefused(await resolveWorkspacePath(workspace.root, 'a\0b'))).toMatch(/NUL/);
  });

  it('reports a missing workspace root instead of throwing', async () => {
    expect(expectRefused(await resolveWorkspacePath(path.join(workspace.parent, 'no-such-root'), 'a.txt'))).toMatch(/workspace root/);
  });

  it('treats a path below a file as not existing (the operation will fail later)', async () => {
    await writeTestFile(workspace.root, 'file.txt', 'x');
    const resolved = expectInside(await resolveWorkspacePath(workspace.root, 'file.txt/child'));
    expect(resolved.exists).toBe(false);
  });
});
