/**
 * The transpile cache across processes: a second fresh `toolhost` process reuses the entry the first
 * one wrote instead of transpiling again (jco once mutated the shared transpile options, so every
 * process's first load missed), and the cache lives in the user's cache directory, not the cwd.
 * `NODE_DEBUG=toolhost` makes the loader print one line per load: a cache hit or a miss.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
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
