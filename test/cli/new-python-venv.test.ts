/**
 * `toolhost new python`: the one-time install goes into a venv in the project (Debian's and Ubuntu's
 * Python refuse a system-wide `pip install`), and build.sh uses the venv's componentize-py. Checked
 * with the real scaffold and build.sh, and a stand-in componentize-py in .venv/bin (no Python needed).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_SETUP_COMMAND } from '../../src/cli/templates/python.ts';
import { runCli, temporaryDirectory } from './run-cli.ts';

/** A PATH with the shell's basics and no componentize-py. */
const BARE_PATH = '/usr/bin:/bin';

describe('toolhost new python: componentize-py in a venv', () => {
  let workspace: { path: string; remove: () => void };
  let project: string;
  let stdout: string;

  beforeAll(async () => {
    workspace = temporaryDirectory('toolhost-new-python-');
    const created = await runCli(['new', 'python', 'pytool'], { cwd: workspace.path });
    expect(created.exitCode, created.stderr).toBe(0);
    stdout = created.stdout;
    project = join(workspace.path, 'pytool');
  }, 60_000);
  afterAll(() => workspace.remove());

  it('prints the venv install as the one-time step, and the README and .gitignore say the same', () => {
    expect(PYTHON_SETUP_COMMAND).toMatch(/^python3 -m venv \.venv && \.venv\/bin\/pip install componentize-py==\d+\.\d+\.\d+$/);
    const steps = (stdout.split('\nnext:\n')[1] ?? '').split('\n').map((line) => line.trim());
    expect(steps).toContain(`${PYTHON_SETUP_COMMAND}   # once`);
    expect(stdout).not.toMatch(/^\s*pip install/m);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toContain(`${PYTHON_SETUP_COMMAND}   # once, in a venv`);
    expect(readFileSync(join(project, '.gitignore'), 'utf8').split('\n')).toContain('.venv/');
  });

  it("build.sh runs the venv's componentize-py when it is not on PATH", () => {
    const bin = join(project, '.venv', 'bin');
    mkdirSync(bin, { recursive: true });
    // The stand-in writes the file named after -o, as componentize-py does.
    writeFileSync(join(bin, 'componentize-py'), '#!/bin/sh\nwhile [ "$#" -gt 0 ]; do if [ "$1" = "-o" ]; then shift; echo stub > "$1"; fi; shift; done\n');
    chmodSync(join(bin, 'componentize-py'), 0o755);
    const built = spawnSync('sh', ['./build.sh'], { cwd: project, env: { PATH: BARE_PATH }, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain('built pytool.wasm');
    expect(existsSync(join(project, 'pytool.wasm'))).toBe(true);
  });

  it.runIf(spawnSync('sh', ['-c', 'command -v componentize-py'], { env: { PATH: BARE_PATH } }).status !== 0)(
    'without the venv, build.sh says how to make one',
    async () => {
      const other = await runCli(['new', 'python', 'novenv'], { cwd: workspace.path });
      expect(other.exitCode).toBe(0);
      const built = spawnSync('sh', ['./build.sh'], { cwd: join(workspace.path, 'novenv'), env: { PATH: BARE_PATH }, encoding: 'utf8' });
      expect(built.status).toBe(1);
      expect(built.stderr).toContain(PYTHON_SETUP_COMMAND);
      expect(built.stderr).toMatch(/venv/);
    },
    60_000,
  );
});
