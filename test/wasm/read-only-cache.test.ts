/**
 * A read-only transpile cache (baked into an image, mounted read-only): a real `toolhost list` loads
 * the extensions folder with its cache folder bind-mounted read-only (`unshare -Urm`: a user and
 * mount namespace, so writes fail with EROFS as on a read-only volume). The baked tool is served from
 * the cache, the tool the cache lacks is transpiled into a private temporary folder (warning
 * TOOLHOST_CACHE_READ_ONLY), both are listed, and the read-only folder is left exactly as it was.
 * An empty read-only folder (no integrity key) works the same way.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, temporaryDirectory } from '../cli/run-cli.ts';
import { fixture } from '../extensions/helpers.ts';

/** Every path under `root`, sorted (what the test compares before and after). */
function tree(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).map((entry) => relative(root, join(root, entry))).sort();
}

/** `toolhost list --json` with `cacheDirectory` mounted read-only for it alone. */
function listWithReadOnlyCache(root: string, cacheDirectory: string): { status: number | null; stdout: string; stderr: string } {
  const [node, leading] = cliCommand('src');
  const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"';
  const args = ['-Urm', 'sh', '-c', script, 'sh', cacheDirectory, node, ...leading, 'list', '--json', '--workspace', join(root, 'workspace'), '--extensions', join(root, 'extensions'), '--cache-dir', cacheDirectory];
  const result = spawnSync('unshare', args, { encoding: 'utf8', timeout: 240_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function listWithCache(root: string, cacheDirectory: string): { status: number | null; stderr: string } {
  const [node, leading] = cliCommand('src');
  const result = spawnSync(node, [...leading, 'list', '--json', '--workspace', join(root, 'workspace'), '--extensions', join(root, 'extensions'), '--cache-dir', cacheDirectory], { encoding: 'utf8', timeout: 240_000 });
  return { status: result.status, stderr: result.stderr };
}

const names = (stdout: string): string[] => (JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name);

describe('a read-only transpile cache', { timeout: 300_000 }, () => {
  let root: { path: string; remove: () => void };
  beforeAll(() => {
    root = temporaryDirectory('toolhost-ro-cache-');
    mkdirSync(join(root.path, 'workspace'));
    mkdirSync(join(root.path, 'extensions'));
  });
  afterAll(() => root.remove());

  it('serves what it holds, transpiles what it lacks elsewhere, and is left unchanged', () => {
    const baked = join(root.path, 'baked-cache');
    copyFileSync(fixture('ext-greet'), join(root.path, 'extensions', 'greet.wasm'));
    // The build-time warm-up: a writable cache filled by loading the folder once.
    expect(listWithCache(root.path, baked)).toMatchObject({ status: 0 });
    const before = tree(baked);
    expect(before).toContain('integrity.key');
    copyFileSync(fixture('ext-greet2'), join(root.path, 'extensions', 'greet2.wasm'));

    const run = listWithReadOnlyCache(root.path, baked);
    expect(run.status, run.stderr).toBe(0);
    expect(names(run.stdout)).toEqual(expect.arrayContaining(['greet', 'greet2']));
    expect(run.stderr).toMatch(/TOOLHOST_CACHE_READ_ONLY.*cannot be written \(EROFS\)/);
    expect(tree(baked)).toEqual(before);
  });

  it('works from an empty read-only folder too (no integrity key to read)', () => {
    const empty = join(root.path, 'empty-cache');
    mkdirSync(empty);
    const run = listWithReadOnlyCache(root.path, empty);
    expect(run.status, run.stderr).toBe(0);
    expect(names(run.stdout)).toEqual(expect.arrayContaining(['greet', 'greet2']));
    expect(tree(empty)).toEqual([]);
  });
});
