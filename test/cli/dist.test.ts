/**
 * The shipped entry: dist/src/cli/bin.js, the compiled JavaScript that package.json's `bin` and
 * `npm start` run, without tsx. `npm test` builds dist first; run on its own, this file rebuilds
 * dist when a source is newer than its compiled file. Every run starts outside the repository, as
 * an installed `toolhost` would.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN, PROJECT_ROOT, runCli, temporaryDirectory } from './run-cli.ts';

const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** TypeScript sources the build compiles (src/** and builtins/**), as paths relative to the root. */
function sources(directory: string): string[] {
  return readdirSync(join(PROJECT_ROOT, directory), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(directory, name));
}

/** Sources whose compiled file is missing or older than they are. */
function staleSources(): string[] {
  return [...sources('src'), ...sources('builtins')].filter((source) => {
    const compiled = join(PROJECT_ROOT, 'dist', source.replace(/\.ts$/, '.js'));
    return !existsSync(compiled) || statSync(compiled).mtimeMs < statSync(join(PROJECT_ROOT, source)).mtimeMs;
  });
}

function run(command: string, args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the shipped entry (dist/src/cli/bin.js)', () => {
  let work: { path: string; remove: () => void };
  beforeAll(async () => {
    work = temporaryDirectory();
    const assetsMissing = !existsSync(join(PROJECT_ROOT, 'dist', 'src', 'cli', 'templates', 'wasi-wit')) || !existsSync(join(PROJECT_ROOT, 'dist', 'src', 'server', 'console', 'index.html'));
    if (staleSources().length > 0 || assetsMissing) {
      const built = await run('npm', ['run', 'build'], PROJECT_ROOT);
      expect(built.code, built.output).toBe(0);
    }
  }, 600_000);
  afterAll(() => work.remove());

  it('is what package.json ships: bin and start point at it, and it runs without tsx', () => {
    const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(join(PROJECT_ROOT, manifest.bin['toolhost'] ?? '')).toBe(DIST_BIN);
    expect(manifest.scripts['start']).toBe(`node ${relative(PROJECT_ROOT, DIST_BIN)} serve`);
    expect(manifest.scripts['prepare']).toBe('npm run build');
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(staleSources()).toEqual([]);
    expect(readFileSync(DIST_BIN, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it('prints the version from any directory', async () => {
    const result = await runCli(['--version'], { cwd: work.path, entry: 'dist' });
    expect({ code: result.exitCode, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('lists the built-ins (compiled builtins/) as JSON', async () => {
    const result = await runCli(['list', '--json', '--workspace', work.path], { cwd: work.path, entry: 'dist' });
    expect(result.exitCode, result.stderr).toBe(0);
    const names = (JSON.parse(result.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'shell']));
  });

  it('calls a C wasm tool one-shot (the WASI host and workers resolve from dist)', async () => {
    const tools = join(work.path, 'tools');
    mkdirSync(tools, { recursive: true });
    copyFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm'), join(tools, 'ext-greet.wasm'));
    const result = await runCli(['call', 'ext-greet', '{"name": "Ada", "times": 2}', '--extensions', tools, '--workspace', work.path, '--json'], {
      cwd: work.path,
      entry: 'dist',
      env: { TOOLHOST_CACHE_DIR: join(work.path, 'cache') },
      timeoutMs: 120_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as { content: string; is_error: boolean };
    expect(parsed.is_error).toBe(false);
    expect(parsed.content).toContain('Hello, Ada!');
  }, 180_000);

  it('ships the web console assets byte for byte', () => {
    for (const file of readdirSync(join(PROJECT_ROOT, 'src', 'server', 'console'))) {
      expect(readFileSync(join(PROJECT_ROOT, 'dist', 'src', 'server', 'console', file), 'utf8'), file).toBe(readFileSync(join(PROJECT_ROOT, 'src', 'server', 'console', file), 'utf8'));
    }
  });

  it('scaffolds a JS project with the vendored WIT files (assets copied into dist)', async () => {
    const result = await runCli(['new', 'js', 'witcheck', '--dir', join(work.path, 'witcheck')], { cwd: work.path, entry: 'dist' });
    expect(result.exitCode, result.stderr).toBe(0);
    const wit = readFileSync(join(work.path, 'witcheck', 'wit', 'deps', 'cli', 'package.wit'), 'utf8');
    expect(wit).toBe(readFileSync(join(PROJECT_ROOT, 'src', 'cli', 'templates', 'wasi-wit', 'cli', 'package.wit'), 'utf8'));
  });

  it('prints an MCP client config in `mcp --help` that starts this toolhost from any directory', async () => {
    const help = await runCli(['mcp', '--help'], { cwd: work.path, entry: 'dist' });
    expect(help.exitCode).toBe(0);
    const line = help.stdout.split('\n').find((text) => text.trim().startsWith('{ "command"'));
    expect(line).toBeDefined();
    const entry = JSON.parse(line ?? '{}') as { command: string; args: string[] };
    // Absolute folders: the client may start it from any directory.
    expect(entry.args.slice(-5)).toEqual(['mcp', '--workspace', realpathSync(work.path), '--extensions', join(realpathSync(work.path), 'extensions', 'tools')]);
    // The same command with --version instead of the mcp arguments, from an unrelated directory.
    const again = await run(entry.command, [...entry.args.slice(0, -5), '--version'], work.path);
    expect(again).toEqual({ code: 0, output: `${version}\n` });
  });
});
