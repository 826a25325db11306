/**
 * inspect, check, and list/call with an extensions folder, on real components: the C template
 * built here (`toolhost new c` + its build.sh) and the test fixtures (`npm run fixtures`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli, spawnCli, temporaryDirectory } from './run-cli.ts';

const JCO = `${process.execPath} ${join(PROJECT_ROOT, 'node_modules', '@bytecodealliance', 'jco', 'src', 'jco.js')}`;
const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'build');

describe('wasm tools through the CLI', () => {
  let root: { path: string; remove: () => void };
  let extensions: string;
  let component: string;
  // The wasm worker pool resolves its loader from the cwd, so these runs start in the project root;
  // every path they use is absolute and the transpile cache is a temporary folder.
  const cli = (args: string[]) => runCli(args, { cwd: PROJECT_ROOT, env: { TOOLHOST_CACHE_DIR: join(root.path, 'cache') }, timeoutMs: 60_000 });

  beforeAll(async () => {
    root = temporaryDirectory();
    const created = await runCli(['new', 'c', 'wordy', '--dir', join(root.path, 'wordy')], { cwd: root.path });
    expect(created.exitCode).toBe(0);
    execFileSync(join(root.path, 'wordy', 'build.sh'), { env: { ...process.env, JCO }, stdio: 'pipe' });
    component = join(root.path, 'wordy', 'wordy.wasm');
    extensions = join(root.path, 'extensions');
    mkdirSync(extensions);
    // The template's .tool.json (the envelope opt-in) travels with the .wasm, as its README says.
    copyFileSync(join(root.path, 'wordy', 'wordy.tool.json'), join(extensions, 'wordy.tool.json'));
    copyFileSync(component, join(extensions, 'wordy.wasm'));
  }, 120_000);
  afterAll(() => root.remove());

  it('check passes the template: a component whose --help parses, with its start-up time', async () => {
    const run = await cli(['check', component]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^\s+ok\s+a component, \d+\.\d KiB$/m);
    expect(run.stdout).toMatch(/ok\s+start-up: \d+ ms per --help run/);
    expect(run.stdout).toContain('--help parsed: 2 option(s), 1 positional(s), 0 subcommand(s); program "wordy"');
    expect(run.stdout).toMatch(/0 errors, 0 warnings\n$/);
  }, 60_000);

  it('check --json reports findings and facts', async () => {
    const run = await cli(['check', component, '--json']);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; errors: number; facts: Record<string, unknown>; findings: { level: string; code: string }[] };
    expect(report.ok).toBe(true);
    expect(report.facts).toMatchObject({ kind: 'component', help_flag: '--help', options: 2, positionals: 1, subcommands: 0 });
    expect(typeof report.facts['startup_ms']).toBe('number');
    expect(report.facts['imports']).toContain('wasi:cli/stdout');
  }, 60_000);

  it('check accepts a wasip1 module and warns when no arguments are found (--strict fails)', async () => {
    const run = await cli(['check', join(FIXTURES, 'hello.core.wasm'), '--json']);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as { facts: { kind: string }; findings: { level: string; code: string }[] };
    expect(report.facts.kind).toBe('wasip1-core-module');
    expect(report.findings).toContainEqual(expect.objectContaining({ level: 'warning', code: 'no-arguments-found' }));
    const strict = await cli(['check', join(FIXTURES, 'hello.core.wasm'), '--strict']);
    expect(strict.exitCode).toBe(1);
  }, 60_000);

  it('check fails (exit 1) on a file that is not wasm, and on an invalid policy sidecar', async () => {
    const notWasm = await cli(['check', join(PROJECT_ROOT, 'package.json')]);
    expect(notWasm.exitCode).toBe(1);
    expect(notWasm.stdout).toMatch(/error\s+not a runnable tool: .*magic/);
    const folder = join(root.path, 'bad-policy');
    mkdirSync(folder, { recursive: true });
    copyFileSync(component, join(folder, 'wordy.wasm'));
    writeFileSync(join(folder, 'wordy.policy.json'), JSON.stringify({ timeout_ms: 'soon' }));
    const badPolicy = await cli(['check', join(folder, 'wordy.wasm'), '--json']);
    expect(badPolicy.exitCode).toBe(1);
    expect((JSON.parse(badPolicy.stdout) as { findings: { code: string }[] }).findings).toContainEqual(expect.objectContaining({ code: 'policy-invalid' }));
  }, 60_000);

  it('check derives the spec as a host does: with the tool\'s grants, and each subcommand\'s own help', async () => {
    const folder = join(root.path, 'check-pipeline');
    const data = join(folder, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'option.txt'), 'from-folder\n');
    copyFileSync(join(FIXTURES, 'help-grants.wasm'), join(folder, 'granted.wasm'));
    writeFileSync(join(folder, 'granted.policy.json'), JSON.stringify({ fs: [{ host: data, guest: '/data', mode: 'ro' }], env: { EXTRA_OPTION: 'from-env' } }));
    const granted = await cli(['check', join(folder, 'granted.wasm'), '--json']);
    expect(granted.exitCode).toBe(0);
    const grantedReport = JSON.parse(granted.stdout) as { facts: Record<string, unknown>; findings: { code: string; message: string }[] };
    expect(grantedReport.facts).toMatchObject({ help_flag: '--help', options: 2 });
    expect(grantedReport.findings.find((finding) => finding.code === 'help')?.message).toContain('2 option(s)');

    copyFileSync(join(FIXTURES, 'vcs-subcommands.wasm'), join(folder, 'vcs.wasm'));
    const vcs = await cli(['check', join(folder, 'vcs.wasm'), '--json']);
    expect(vcs.exitCode).toBe(0);
    const vcsReport = JSON.parse(vcs.stdout) as { facts: Record<string, unknown>; findings: { code: string; message: string }[] };
    expect(vcsReport.facts).toMatchObject({ subcommands: 2, subcommands_with_own_parameters: 2 });
    const subcommandFinding = vcsReport.findings.find((finding) => finding.code === 'subcommand-help')?.message;
    expect(subcommandFinding).toMatch(/2 of 2 subcommand\(s\) have their own options or positionals/);
    expect(subcommandFinding).toMatch(/clone \(\d+ option\(s\), 2 positional\(s\)\)/);
  }, 120_000);

  it('inspect lists each subcommand with its own options and positionals', async () => {
    const run = await cli(['inspect', join(FIXTURES, 'vcs-subcommands.wasm')]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^ {2}clone\s+--depth <REPO> \[DIR\]\s+Clone a repository$/m);
    expect(run.stdout).toMatch(/^ {2}tag\s+--force <NAMES\.\.\.>\s+Create tags$/m);
  }, 60_000);

  it('check on a missing file is a usage error (exit 2)', async () => {
    const run = await cli(['check', join(root.path, 'missing.wasm')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no such file');
  });

  it('inspect --json prints exactly the report keys first, extended with load facts', async () => {
    const run = await cli(['inspect', component, '--json']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(report).slice(0, 5)).toEqual(['name', 'description', 'spec', 'schema', 'argv_example']);
    expect(Object.keys(report.spec as object)).toEqual(['options', 'positionals', 'subcommands', 'sources']);
    expect(report).toMatchObject({
      name: 'wordy',
      description: 'Repeat a text a number of times, optionally in upper case',
      schema: { type: 'object', required: ['text'] },
      help_flag: '--help',
      permission: 'none',
      policy: { fs: [], network: { allow: [] } },
    });
    const spec = report.spec as { options: { long: string; type: string; default: unknown }[]; positionals: { name: string; required: boolean }[] };
    expect(spec.options.map((option) => [option.long, option.type, option.default])).toEqual([
      ['times', 'integer', 1],
      ['upper', 'boolean', null],
    ]);
    expect(spec.positionals).toEqual([expect.objectContaining({ name: 'TEXT', required: true, variadic: false })]);
    // each field's source: which help reader (and rule) decided it
    const inline = report.spec as { sources: Record<string, string>; options: { long: string; sources: Record<string, string> }[]; positionals: { name: string; sources: Record<string, string> }[] };
    expect(inline.sources).toMatchObject({ name: expect.stringMatching(/^help:/), framework: expect.stringMatching(/^help:fingerprint\./) });
    expect(inline.options.find((option) => option.long === 'times')?.sources).toMatchObject({ takes_value: expect.stringMatching(/^help:[a-z]+\.placeholder$/), default: expect.stringMatching(/^help:/) });
    expect(inline.positionals[0]?.sources).toMatchObject({ name: expect.stringMatching(/^help:/), required: expect.stringMatching(/^help:/) });
    expect(report.argv_example).toContain('--times');
    expect(report.imports).toContain('wasi:cli/stdout');
  }, 60_000);

  it('inspect by tool name (extensions folder) shows spec, schema, example argv, imports and policy', async () => {
    const run = await cli(['inspect', 'wordy', '--extensions', extensions]);
    expect(run.exitCode).toBe(0);
    for (const section of ['options', 'positionals', 'schema', 'example argv', 'imports', 'policy']) expect(run.stdout).toMatch(new RegExp(`^${section}`, 'm'));
    expect(run.stdout).toMatch(/-n, --times <N>\s+integer, default 1\s+How many times/);
    expect(run.stdout).toContain('  wordy --times 2 --upper text'); // a sample value other than the default (1)
    expect(run.stdout).toMatch(/network\s+none/);
  }, 60_000);

  it('inspect refuses built-ins and unknown names (exit 2)', async () => {
    const builtin = await cli(['inspect', 'read_file', '--extensions', extensions]);
    expect(builtin.exitCode).toBe(2);
    expect(builtin.stderr).toContain('built-in');
    const unknown = await cli(['inspect', 'nope', '--extensions', extensions]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('wasm tools here: wordy');
  }, 60_000);

  it('list and call include the extensions folder: the template tool runs end to end', async () => {
    const list = await cli(['list', '--extensions', extensions]);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/^wordy\s+wasm\s+none\s+Repeat a text/m);
    const call = await cli(['call', 'wordy', '--extensions', extensions, '--arg', 'text=hi', '--arg', 'times=3', '--arg', 'upper=true']);
    expect(call.stderr).toBe('');
    expect(call.exitCode).toBe(0);
    expect(call.stdout).toBe('HI HI HI\n');
    const failed = await cli(['call', 'wordy', '--extensions', extensions, '--json', '{"text": "x", "times": 500}']);
    expect(failed.exitCode).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ is_error: true });
  }, 60_000);

  it('serve hot-reloads the extensions folder: a component copied in is listed and callable', async () => {
    const folder = join(root.path, 'hot');
    mkdirSync(folder, { recursive: true });
    const child = spawnCli(['serve', '--port', '0', '--extensions', folder], { cwd: PROJECT_ROOT, env: { TOOLHOST_CACHE_DIR: join(root.path, 'cache') } });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve) => {
        child.stdout?.on('data', () => {
          const match = /listening on (http:\/\/\S+) \(\d+ tools\)/.exec(stdout);
          if (match?.[1]) resolve(match[1]);
        });
      });
      copyFileSync(join(root.path, 'wordy', 'wordy.tool.json'), join(folder, 'wordy.tool.json'));
      copyFileSync(component, join(folder, 'wordy.wasm'));
      let names: string[] = [];
      for (let attempt = 0; attempt < 100 && !names.includes('wordy'); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        names = ((await (await fetch(`${url}/v1/tools`)).json()) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
      }
      expect(names).toContain('wordy');
      const response = await fetch(`${url}/v1/tools/wordy/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ arguments: { text: 'ok', times: 2 } }) });
      expect(await response.json()).toMatchObject({ content: 'ok ok', is_error: false });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
