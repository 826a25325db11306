/**
 * Two runs of the examples build at once (extensions/examples/build.mjs) on one cache: each stages and
 * builds in a work folder of its own, so neither removes or renames the other's files, and what must not
 * run twice at once (toolchain installs, the cargo target folder) takes a lock folder. The helpers are
 * tested directly; the whole script runs twice at once on the C example (clang + jco, seconds), both
 * with --force so both really build, into one output folder and into two.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';

const BUILD_SCRIPT = join(PROJECT_ROOT, 'extensions', 'examples', 'build.mjs');

interface BuildModule {
  createWorkFolder(name: string, cacheRoot?: string): string;
  stageWithWasiWit(example: { name: string; dir: string }, files: string[], work: string): string;
  withCacheLock<T>(name: string, task: () => Promise<T>, cacheRoot?: string): Promise<T>;
  copyIntoPlace(source: string, target: string): void;
}

const loadBuildModule = async (): Promise<BuildModule> => (await import(pathToFileURL(BUILD_SCRIPT).href)) as BuildModule;

describe('the examples build keeps each run to its own files', () => {
  let root: { path: string; remove: () => void };
  beforeAll(() => {
    root = temporaryDirectory('toolhost-examples-units-');
  });
  afterAll(() => root.remove());

  it('gives every build a work folder of its own, and stages the Python and JS examples there', async () => {
    const build = await loadBuildModule();
    const first = build.createWorkFolder('csv2json', root.path);
    const second = build.createWorkFolder('csv2json', root.path);
    expect(first).not.toBe(second);
    expect(first.startsWith(join(root.path, 'work', 'csv2json-'))).toBe(true);
    const example = { name: 'csv2json', dir: join(PROJECT_ROOT, 'extensions', 'examples', 'csv2json') };
    const stages = [build.stageWithWasiWit(example, ['app.py'], first), build.stageWithWasiWit(example, ['app.py'], second)];
    expect(stages).toEqual([join(first, 'stage'), join(second, 'stage')]);
    for (const stage of stages) {
      expect(readFileSync(join(stage, 'app.py'), 'utf8')).toBe(readFileSync(join(example.dir, 'app.py'), 'utf8'));
      expect(existsSync(join(stage, 'wit', 'world.wit'))).toBe(true);
      expect(readdirSync(join(stage, 'wit', 'deps')).length).toBeGreaterThan(0);
    }
  });

  it('runs tasks under one lock one at a time, and takes over a lock whose owner is gone', async () => {
    const build = await loadBuildModule();
    const events: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = build.withCacheLock(
      'tool',
      async () => {
        events.push('first in');
        firstStarted();
        await firstHolds;
        events.push('first out');
      },
      root.path,
    );
    await started;
    const second = build.withCacheLock('tool', async () => void events.push('second in'), root.path);
    // The second waits on the lock folder while the first holds it (it polls; the first lets go only when told).
    expect(existsSync(join(root.path, 'locks', 'tool'))).toBe(true);
    releaseFirst();
    await Promise.all([first, second]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
    expect(existsSync(join(root.path, 'locks', 'tool'))).toBe(false);
    // A lock left by a process that no longer exists (pid 2^22 + 1 is above Linux's pid_max default).
    mkdirSync(join(root.path, 'locks', 'stale'), { recursive: true });
    writeFileSync(join(root.path, 'locks', 'stale', 'pid'), String(4_194_305));
    expect(await build.withCacheLock('stale', async () => 'ran', root.path)).toBe('ran');
  });

  it('copies into place through a rename, leaving no temporary file', async () => {
    const build = await loadBuildModule();
    const source = join(root.path, 'source.bin');
    writeFileSync(source, 'component bytes');
    const out = join(root.path, 'out');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'tool.wasm'), 'old');
    build.copyIntoPlace(source, join(out, 'tool.wasm'));
    expect(readFileSync(join(out, 'tool.wasm'), 'utf8')).toBe('component bytes');
    expect(readdirSync(out)).toEqual(['tool.wasm']);
  });
});

interface BuildRun {
  code: number | null;
  output: string;
}

/** One build run with its own cache root (XDG_CACHE_HOME), so the user's cache is never touched. */
function build(args: readonly string[], cacheHome: string): Promise<BuildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILD_SCRIPT, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, XDG_CACHE_HOME: cacheHome }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

// Needs clang + wasi-libc, like the test fixtures (.ci/run installs them).
describe('the examples build, twice at once', { timeout: 300_000 }, () => {
  let root: { path: string; remove: () => void };
  beforeAll(() => {
    root = temporaryDirectory('toolhost-examples-build-');
  });
  afterAll(() => root.remove());

  it('two --force builds of the C example into one output folder both succeed with the same component', async () => {
    const cacheHome = join(root.path, 'cache');
    const out = join(root.path, 'out');
    const runs = await Promise.all([build(['--only', 'hashenc', '--force', '--out', out], cacheHome), build(['--only', 'hashenc', '--force', '--out', out], cacheHome)]);
    for (const run of runs) {
      expect(run.output).toMatch(/hashenc\s+C\s+\S+ KiB\s+[\d.]+\s+built/);
      expect(run.code, run.output).toBe(0);
    }
    const component = readFileSync(join(out, 'hashenc.wasm'));
    expect(component.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    expect(existsSync(join(out, 'hashenc.tool.json'))).toBe(true);
    // Nothing left behind: the cached component (the same bytes), no work folders, no temporary copies.
    const cache = join(cacheHome, 'toolhost-examples');
    const cached = readdirSync(join(cache, 'build')).filter((file) => file.startsWith('hashenc'));
    expect(cached).toHaveLength(1);
    expect(readFileSync(join(cache, 'build', cached[0] ?? '')).equals(component)).toBe(true);
    expect(existsSync(join(cache, 'work')) ? readdirSync(join(cache, 'work')) : []).toEqual([]);
    expect(readdirSync(out).sort()).toEqual(['hashenc.tool.json', 'hashenc.wasm']);
  });
});
