import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { helpCacheNamespace } from '../../src/introspect/capture.ts';
import { transpileOptionsKey } from '../../src/wasm/transpile-cache.ts';
import { runCli, temporaryDirectory } from './run-cli.ts';

/**
 * A cache folder laid out like the runtime writes it: `<sha256>-<options key>/`, help captured under a
 * toolhost version's namespace (`help/<namespace>/<key>.json`) and, from older versions, `help/<key>.json`.
 */
function populate(directory: string): void {
  const current = join(directory, `${'a'.repeat(64)}-${transpileOptionsKey()}`);
  const stale = join(directory, `${'b'.repeat(64)}-${'0'.repeat(16)}`);
  for (const entry of [current, stale]) {
    mkdirSync(entry, { recursive: true });
    writeFileSync(join(entry, 'manifest.json'), '{}');
    writeFileSync(join(entry, 'tool.core.wasm'), Buffer.alloc(2048));
  }
  mkdirSync(join(directory, 'help'), { recursive: true });
  writeFileSync(join(directory, 'help', `${'a'.repeat(64)}.json`), '{"text":"","flag":"--help"}');
  mkdirSync(join(directory, 'help', helpCacheNamespace('0.1.0')), { recursive: true });
  writeFileSync(join(directory, 'help', helpCacheNamespace('0.1.0'), `${'c'.repeat(64)}.json`), '{"text":"","flag":"--help"}');
  mkdirSync(join(directory, 'spec', helpCacheNamespace('0.1.0')), { recursive: true });
  writeFileSync(join(directory, 'spec', helpCacheNamespace('0.1.0'), `${'d'.repeat(64)}.json`), '{"format":1}');
}

describe('toolhost cache', () => {
  let workspace: { path: string; remove: () => void };
  beforeEach(() => {
    workspace = temporaryDirectory();
  });
  afterEach(() => workspace.remove());

  it('info reports the default folder ($XDG_CACHE_HOME/toolhost) even before it exists', async () => {
    const xdg = join(workspace.path, 'xdg');
    const run = await runCli(['cache', 'info'], { cwd: workspace.path, env: { XDG_CACHE_HOME: xdg } });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`cache directory  ${join(xdg, 'toolhost')} (does not exist yet)`);
    expect(run.stdout).toMatch(/components\s+0/);
  });

  it('falls back to ~/.cache/toolhost without XDG_CACHE_HOME (or with a relative one), never the working directory', async () => {
    const home = join(workspace.path, 'home');
    for (const xdg of [undefined, 'relative/cache']) {
      const run = await runCli(['cache', 'info', '--json'], { cwd: workspace.path, env: { HOME: home, XDG_CACHE_HOME: xdg } });
      expect(run.exitCode).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ directory: join(home, '.cache', 'toolhost'), exists: false });
    }
  });

  it('info --json counts entries, stale entries, help texts and bytes', async () => {
    const directory = join(workspace.path, 'custom-cache');
    populate(directory);
    const run = await runCli(['cache', 'info', '--json', '--cache-dir', 'custom-cache'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ directory, exists: true, entries: 2, stale_entries: 1, help_entries: 2, spec_entries: 1, temporary_entries: 0 });
    expect(report['bytes']).toBeGreaterThan(4096);
  });

  it('honours TOOLHOST_CACHE_DIR and prints a readable summary', async () => {
    const directory = join(workspace.path, 'from-env');
    populate(directory);
    const run = await runCli(['cache', 'info'], { cwd: workspace.path, env: { TOOLHOST_CACHE_DIR: directory } });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`cache directory  ${directory}\n`);
    expect(run.stdout).toMatch(/components\s+2, 1 from another jco version/);
    expect(run.stdout).toMatch(/size\s+\d+\.\d KiB/);
  });

  it('clear removes the entries it recognises and leaves other files alone', async () => {
    const env = { XDG_CACHE_HOME: join(workspace.path, 'xdg') };
    const directory = join(workspace.path, 'xdg', 'toolhost');
    populate(directory);
    writeFileSync(join(directory, 'NOTES.txt'), 'not ours');
    const run = await runCli(['cache', 'clear'], { cwd: workspace.path, env });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^removed 5 cache entries \(\d+\.\d KiB\) from /);
    expect(existsSync(join(directory, 'NOTES.txt'))).toBe(true);
    const after = JSON.parse((await runCli(['cache', 'info', '--json'], { cwd: workspace.path, env })).stdout) as Record<string, unknown>;
    expect(after).toMatchObject({ entries: 0, help_entries: 0, spec_entries: 0 });
  });

  it('clear removes the folder when it is left empty', async () => {
    const directory = join(workspace.path, 'xdg', 'toolhost');
    populate(directory);
    const run = await runCli(['cache', 'clear', '--json'], { cwd: workspace.path, env: { XDG_CACHE_HOME: join(workspace.path, 'xdg') } });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ directory, removed: 5 });
    expect(existsSync(directory)).toBe(false);
  });

  it('needs a subcommand (exit 2) and has --help', async () => {
    expect((await runCli(['cache'], { cwd: workspace.path })).exitCode).toBe(2);
    const help = await runCli(['cache', 'clear', '--help'], { cwd: workspace.path });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: toolhost cache clear');
  });
});
