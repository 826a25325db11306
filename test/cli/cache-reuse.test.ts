/**
 * The transpile cache across processes: a second fresh `toolhost` process reuses the entry the first
 * one wrote instead of transpiling again (jco once mutated the shared transpile options, so every
 * process's first load missed), and the cache lives in the user's cache directory, not the cwd.
 * `NODE_DEBUG=toolhost` makes the loader print one line per load: a cache hit or a miss.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, temporaryDirectory } from './run-cli.ts';

const FIXTURE = join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm');
const MISS = /transpile cache miss: transpiled \S*ext-greet\.wasm/;
const HIT = /transpile cache hit: \S*ext-greet\.wasm/;

describe('transpile cache reuse across processes', () => {
  let work: { path: string; remove: () => void };
  beforeEach(() => {
    work = temporaryDirectory();
    copyFileSync(FIXTURE, join(work.path, 'ext-greet.wasm'));
  });
  afterEach(() => work.remove());

  it('a second fresh process loads from the cache the first one wrote, and `cache info` calls the entry current', async () => {
    const cache = join(work.path, 'cache');
    const env = { NODE_DEBUG: 'toolhost', TOOLHOST_CACHE_DIR: cache };
    const first = await runCli(['inspect', 'ext-greet.wasm', '--json'], { cwd: work.path, env, timeoutMs: 120_000 });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toMatch(MISS);

    const second = await runCli(['inspect', 'ext-greet.wasm', '--json'], { cwd: work.path, env, timeoutMs: 120_000 });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toMatch(HIT);
    expect(second.stderr).not.toMatch(MISS);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));

    const info = await runCli(['cache', 'info', '--json'], { cwd: work.path, env: { TOOLHOST_CACHE_DIR: cache } });
    expect(info.exitCode).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ directory: cache, entries: 1, stale_entries: 0, temporary_entries: 0 });
  }, 240_000);

  it('writes to $XDG_CACHE_HOME/toolhost by default and nothing into the working directory', async () => {
    const xdg = join(work.path, 'xdg');
    const run = await runCli(['inspect', 'ext-greet.wasm'], { cwd: work.path, env: { NODE_DEBUG: 'toolhost', XDG_CACHE_HOME: xdg }, timeoutMs: 120_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(join(xdg, 'toolhost'));
    expect(readdirSync(join(xdg, 'toolhost')).some((name) => /^[0-9a-f]{64}-[0-9a-f]{16}$/.test(name))).toBe(true);
    expect(readdirSync(work.path).sort()).toEqual(['ext-greet.wasm', 'xdg']);
    expect(existsSync(join(work.path, '.toolhost-cache'))).toBe(false);
  }, 120_000);
});

describe('help cache reuse when the workspace moves', () => {
  let work: { path: string; remove: () => void };
  beforeEach(() => {
    work = temporaryDirectory();
  });
  afterEach(() => work.remove());

  /** A workspace whose tool's help needs its grants: a folder inside the workspace and a variable. */
  function workspaceAt(path: string, guest = '/data'): void {
    mkdirSync(join(path, 'tools'), { recursive: true });
    mkdirSync(join(path, 'data'), { recursive: true });
    writeFileSync(join(path, 'data', 'option.txt'), 'colour\n');
    copyFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'help-grants.wasm'), join(path, 'tools', 'help-grants.wasm'));
    writeFileSync(join(path, 'tools', 'help-grants.policy.json'), JSON.stringify({ fs: [{ host: './data', guest, mode: 'ro' }], env: { EXTRA_OPTION: 'shade' } }));
  }
  const captures = (stderr: string): number => (stderr.match(/help cache miss: capturing/g) ?? []).length;
  const list = (workspace: string, cache: string) =>
    runCli(['list', '--json', '--workspace', workspace, '--extensions', join(workspace, 'tools')], { cwd: workspace, env: { NODE_DEBUG: 'toolhost', TOOLHOST_CACHE_DIR: cache }, timeoutMs: 120_000 });

  it('a copy of the workspace at another path reuses the help captured in the first; other grants capture again', async () => {
    const cache = join(work.path, 'cache');
    const first = join(work.path, 'first');
    workspaceAt(first);
    const captured = await list(first, cache);
    expect(captured.exitCode, captured.stderr).toBe(0);
    expect(captures(captured.stderr)).toBe(1);
    expect(captured.stdout).toContain('colour');

    const moved = join(work.path, 'moved', 'elsewhere');
    cpSync(first, moved, { recursive: true });
    const reused = await list(moved, cache);
    expect(reused.exitCode, reused.stderr).toBe(0);
    expect(captures(reused.stderr)).toBe(0);
    // The finished spec (wasm spec cache) or at least the help is reused: nothing runs the help again.
    expect(reused.stderr).toMatch(/(help|spec) cache hit/);
    expect(JSON.parse(reused.stdout)).toEqual(JSON.parse(captured.stdout.split(first).join(moved)));

    // The control: the same tool granted the folder under another guest path is captured anew.
    const other = join(work.path, 'other');
    workspaceAt(other, '/elsewhere');
    const recaptured = await list(other, cache);
    expect(captures(recaptured.stderr)).toBe(1);
  }, 360_000);
});
