import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DESCRIPTION, exampleHelp, TEMPLATE_LANGUAGES } from '../../src/cli/templates/index.ts';
import { BIN, cliEnvironment, PROJECT_ROOT, runCli, temporaryDirectory, type CliRun } from './run-cli.ts';

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
  // "--" ends the options: the host passes it before a value that starts with "-".
  expect(JSON.parse(runNative(binary, ['--', '-x']).stdout)).toMatchObject({ content: '-x' });
  expect(JSON.parse(runNative(binary, ['-u', '--', '--upper']).stdout)).toMatchObject({ content: '--UPPER', metadata: { upper: true } });
  for (const args of [['--times', '0', 'x'], ['x', 'y'], [], ['--bogus', 'x'], ['--times'], ['--', 'x', '-y']]) {
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
    c: ['demo_c.c', 'demo_c.tool.json', 'build.sh', 'README.md', '.gitignore'],
    go: ['main.go', 'go.mod', 'demo_go.tool.json', 'build.sh', 'README.md', '.gitignore'],
    python: ['app.py', 'wit/world.wit', 'wit/deps/cli/package.wit', 'wit/deps/io/package.wit', 'demo_python.tool.json', 'build.sh', 'README.md', '.gitignore'],
    rust: ['src/main.rs', 'Cargo.toml', 'demo_rust.tool.json', 'build.sh', 'README.md', '.gitignore'],
    js: ['demo_js.js', 'wit/world.wit', 'wit/deps/cli/package.wit', 'wit/deps/io/package.wit', 'package.json', 'demo_js.tool.json', 'build.sh', 'README.md', '.gitignore'],
  };

  it.each(Object.entries(expectedFiles))('scaffolds a %s project: source, build script, README', async (language, files) => {
    const name = `demo_${language}`;
    // PATH without a `toolhost` on it: the hints then say how to run this one.
    const run = await runCli(['new', language, name], { cwd: workspace.path, env: { PATH: '/usr/bin:/bin' } });
    expect(run.stderr).toMatch(/^toolhost: warning: `toolhost` is not on PATH: run `npm install -g \/.+` once, or use `.*node.* .*bin\.(mjs|js)` where the steps say `toolhost`\n$/);
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
    // The publish step: push with the sidecars, signed, and add by reference.
    expect(readme).toContain(`toolhost push ${name}.wasm oci://`);
    expect(readme).toContain('--sign --key cosign.key');
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
    const compiled = spawnSync('python3', ['-m', 'py_compile', join(workspace.path, 'syntax_py', 'app.py')], { encoding: 'utf8' });
    expect({ status: compiled.status, stderr: compiled.stderr }).toEqual({ status: 0, stderr: '' });
    expect(readdirSync(join(workspace.path, 'syntax_py', '__pycache__')).some((name) => name.startsWith('app.'))).toBe(true);
  });

  it('the JS template is a valid ES module', async () => {
    await runCli(['new', 'js', 'syntax_js'], { cwd: workspace.path });
    const checked = spawnSync(process.execPath, ['--check', join(workspace.path, 'syntax_js', 'syntax_js.js')], { encoding: 'utf8' });
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: '' });
  });
});

/**
 * Runs the real toolhost executable as a user would, with no Node flags: on Node 20 the runtime itself switches on
 * the extended-const feature componentize-py output needs (src/wasm/engine-features.ts).
 */
function runToolhost(args: readonly string[], cwd: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cliEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve({ stdout, stderr, exitCode, signal }));
  });
}

/** The lines `toolhost new` prints under "next:", without their indentation. */
function nextSteps(stdout: string): string[] {
  const after = stdout.split('\nnext:\n')[1] ?? '';
  return after
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

interface CallResult {
  content: string;
  is_error: boolean;
  metadata?: Record<string, unknown>;
}

// Real builds with each language's toolchain, then the component runs through the host. The one-time toolchain
// installs (`# once` lines: pip install componentize-py, rustup target add) are CI's job (.ci/run); the JS
// template's `npm install` is part of its build command and runs here against the npm registry.
describe('toolhost new: every template builds with the commands it prints and runs through the host', () => {
  let workspace: { path: string; remove: () => void };
  beforeAll(() => {
    workspace = temporaryDirectory();
  });
  afterAll(() => workspace.remove());

  it.each(TEMPLATE_LANGUAGES.map((language) => [language]))(
    '%s: scaffold, build, check, list, call (valid, a value starting with "-", invalid)',
    async (language) => {
      const name = `built_${language}`;
      const created = await runCli(['new', language, name], { cwd: workspace.path });
      expect(created.exitCode).toBe(0);
      const project = join(workspace.path, name);
      const steps = nextSteps(created.stdout);
      expect(steps[0]).toBe(`cd ${name}`);
      expect(steps.at(-1)).toBe(`toolhost check ${name}.wasm`);
      for (const step of steps.slice(1)) {
        if (step.endsWith('# once')) continue;
        if (step.startsWith('toolhost ')) {
          const checked = await runToolhost(step.split(' ').slice(1), project);
          expect(checked.exitCode, `${checked.stdout}\n${checked.stderr}`).toBe(0);
          expect(checked.stdout).toContain('0 errors');
          continue;
        }
        // JCO: the host's own jco for the C and Go adapter step, instead of `npx --yes` fetching one.
        const built = spawnSync('sh', ['-c', step], { cwd: project, env: { ...process.env, JCO }, encoding: 'utf8' });
        expect(built.status, `${step}\n${built.stdout}\n${built.stderr}`).toBe(0);
      }
      const extensions = join(workspace.path, `extensions_${language}`);
      mkdirSync(extensions);
      copyFileSync(join(project, `${name}.wasm`), join(extensions, `${name}.wasm`));
      // The envelope opt-in travels with the .wasm, as the template's README says.
      copyFileSync(join(project, `${name}.tool.json`), join(extensions, `${name}.tool.json`));
      const common = ['--extensions', extensions, '--cache-dir', join(workspace.path, 'cache'), '--workspace', workspace.path];

      const listed = await runToolhost(['list', '--json', ...common], workspace.path);
      expect(listed.exitCode, listed.stderr).toBe(0);
      const tool = (JSON.parse(listed.stdout) as { name: string; description: string; inputSchema: { required?: string[] } }[]).find((entry) => entry.name === name);
      expect(tool?.description).toBe(EXAMPLE_DESCRIPTION);
      expect(tool?.inputSchema.required).toEqual(['text']);

      const call = async (args: object): Promise<{ exitCode: number | null; result: CallResult }> => {
        const run = await runToolhost(['call', name, JSON.stringify(args), '--json', ...common], workspace.path);
        expect(run.stdout, run.stderr).toMatch(/^\{/);
        return { exitCode: run.exitCode, result: JSON.parse(run.stdout) as CallResult };
      };
      const valid = await call({ text: 'ab "c"', times: 3, upper: true });
      expect(valid).toMatchObject({ exitCode: 0, result: { content: 'AB "C" AB "C" AB "C"', is_error: false, metadata: { times: 3, upper: true } } });
      const dashed = await call({ text: '--upper' });
      expect(dashed).toMatchObject({ exitCode: 0, result: { content: '--upper', is_error: false, metadata: { upper: false } } });
      const invalid = await call({ text: 'x', times: 0 });
      expect(invalid).toMatchObject({ exitCode: 1, result: { is_error: true, metadata: { exit_code: 1 } } });
      expect(invalid.result.content).toContain('--times must be a whole number from 1 to 100');
    },
    600_000,
  );
});
