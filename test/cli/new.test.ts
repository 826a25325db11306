import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleHelp } from '../../src/cli/templates/index.ts';
import { PROJECT_ROOT, runCli, temporaryDirectory } from './run-cli.ts';

const JCO = `${process.execPath} ${join(PROJECT_ROOT, 'node_modules', '@bytecodealliance', 'jco', 'src', 'jco.js')}`;

/** Runs a natively compiled template binary: the same source, so the same contract. */
function runNative(binary: string, args: string[]): { stdout: string; status: number | null } {
  const result = spawnSync(binary, args, { encoding: 'utf8' });
  return { stdout: result.stdout, status: result.status };
}

/** The tool contract every template implements, checked against a native build of it. */
function expectContract(binary: string, name: string): void {
  const help = runNative(binary, ['--help']);
  expect(help.status).toBe(0);
  expect(help.stdout).toBe(exampleHelp(name));
  const ok = runNative(binary, ['--times', '3', '-u', 'ab "c"']);
  expect(ok.status).toBe(0);
  expect(JSON.parse(ok.stdout)).toEqual({ content: 'AB "C" AB "C" AB "C"', metadata: { times: 3, upper: true } });
  expect(JSON.parse(runNative(binary, ['--times=2', 'x']).stdout)).toMatchObject({ content: 'x x' });
  for (const args of [['--times', '0', 'x'], ['x', 'y'], [], ['--bogus', 'x'], ['--times']]) {
    const failed = runNative(binary, args);
    expect(failed.status, `args ${JSON.stringify(args)}`).not.toBe(0);
    const body = JSON.parse(failed.stdout) as { error?: unknown };
    expect(typeof body.error, `args ${JSON.stringify(args)}`).toBe('string');
  }
}

describe('toolhost new', () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory();
  });
  afterAll(() => workspace.remove());

  const expectedFiles: Record<string, string[]> = {
    c: ['demo_c.c', 'build.sh', 'README.md', '.gitignore'],
    go: ['main.go', 'go.mod', 'build.sh', 'README.md', '.gitignore'],
    python: ['app.py', 'wit/world.wit', 'build.sh', 'README.md', '.gitignore'],
    rust: ['src/main.rs', 'Cargo.toml', 'build.sh', 'README.md', '.gitignore'],
    js: ['demo_js.js', 'wit/world.wit', 'package.json', 'build.sh', 'README.md', '.gitignore'],
  };

  it.each(Object.entries(expectedFiles))('scaffolds a %s project: source, build script, README', async (language, files) => {
    const name = `demo_${language}`;
    const run = await runCli(['new', language, name], { cwd: workspace.path });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`created ${name}/`);
    for (const file of files) {
      expect(existsSync(join(workspace.path, name, file)), file).toBe(true);
      expect(run.stdout).toContain(file);
    }
    expect(statSync(join(workspace.path, name, 'build.sh')).mode & 0o111).not.toBe(0);
    const readme = readFileSync(join(workspace.path, name, 'README.md'), 'utf8');
    expect(readme).toContain(`# ${name}`);
    expect(readme).toContain('{"error":');
    // Every template embeds the same help text, with its own name.
    const sourceFile = files[0] as string;
    const source = readFileSync(join(workspace.path, name, sourceFile), 'utf8');
    expect(source).toContain(`Usage: ${name} [OPTIONS] <TEXT>`);
    expect(source).toContain('--times <N>');
  });

  it('writes into --dir', async () => {
    const run = await runCli(['new', 'c', 'placed', '--dir', 'tools/placed'], { cwd: workspace.path });
    expect(run.exitCode).toBe(0);
    expect(existsSync(join(workspace.path, 'tools', 'placed', 'placed.c'))).toBe(true);
  });

  it('refuses a non-empty directory unless --force (exit 2)', async () => {
    mkdirSync(join(workspace.path, 'taken'));
    writeFileSync(join(workspace.path, 'taken', 'keep.txt'), 'x');
    const refused = await runCli(['new', 'c', 'taken'], { cwd: workspace.path });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('already exists and is not empty');
    const forced = await runCli(['new', 'c', 'taken', '--force'], { cwd: workspace.path });
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(join(workspace.path, 'taken', 'keep.txt'), 'utf8')).toBe('x');
  });

  it('rejects an unknown language and an invalid name (exit 2)', async () => {
    const language = await runCli(['new', 'cobol', 'x'], { cwd: workspace.path });
    expect(language.exitCode).toBe(2);
    expect(language.stderr).toContain('c, go, python, rust, js');
    const name = await runCli(['new', 'c', '9 lives'], { cwd: workspace.path });
    expect(name.exitCode).toBe(2);
    expect(name.stderr).toContain('invalid tool name');
  });

  it('the C template honours the contract (native build of the same source)', async () => {
    await runCli(['new', 'c', 'native_c'], { cwd: workspace.path });
    const project = join(workspace.path, 'native_c');
    execFileSync('clang', ['-O1', '-Wall', '-Werror', '-o', join(project, 'native'), join(project, 'native_c.c')]);
    expectContract(join(project, 'native'), 'native_c');
  });

  it('the C template builds to a wasip2 component with its build.sh', async () => {
    await runCli(['new', 'c', 'built_c'], { cwd: workspace.path });
    const project = join(workspace.path, 'built_c');
    execFileSync(join(project, 'build.sh'), { env: { ...process.env, JCO }, stdio: 'pipe' });
    const component = readFileSync(join(project, 'built_c.wasm'));
    // \0asm magic, then version 0x0d and layer 1: a component, not a core module.
    expect([...component.subarray(0, 8)]).toEqual([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]);
  }, 60_000);

  it('the Go template honours the contract (native build) and compiles for GOOS=wasip1', async () => {
    await runCli(['new', 'go', 'native_go'], { cwd: workspace.path });
    const project = join(workspace.path, 'native_go');
    execFileSync('go', ['build', '-o', 'native', '.'], { cwd: project, env: { ...process.env, GOFLAGS: '-mod=mod' }, stdio: 'pipe' });
    expectContract(join(project, 'native'), 'native_go');
    execFileSync('go', ['build', '-o', 'native_go.core.wasm', '.'], { cwd: project, env: { ...process.env, GOOS: 'wasip1', GOARCH: 'wasm' }, stdio: 'pipe' });
    const module = readFileSync(join(project, 'native_go.core.wasm'));
    expect([...module.subarray(0, 8)]).toEqual([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  }, 120_000);

  it('the Rust template honours the contract (native build)', async () => {
    await runCli(['new', 'rust', 'native_rs'], { cwd: workspace.path });
    const project = join(workspace.path, 'native_rs');
    execFileSync('rustc', ['--edition', '2021', '-o', join(project, 'native'), join(project, 'src', 'main.rs')], { stdio: 'pipe' });
    expectContract(join(project, 'native'), 'native_rs');
  }, 120_000);

  it('the Python template is valid Python', async () => {
    await runCli(['new', 'python', 'syntax_py'], { cwd: workspace.path });
    execFileSync('python3', ['-m', 'py_compile', join(workspace.path, 'syntax_py', 'app.py')], { stdio: 'pipe' });
  });

  it('the JS template is a valid ES module', async () => {
    await runCli(['new', 'js', 'syntax_js'], { cwd: workspace.path });
    execFileSync(process.execPath, ['--check', join(workspace.path, 'syntax_js', 'syntax_js.js')], { stdio: 'pipe' });
  });
});
