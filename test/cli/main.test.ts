import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runCli } from './run-cli.ts';

const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('toolhost (global flags)', () => {
  it('prints the package.json version with --version and -V', async () => {
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag]);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
      expect(run.stderr).toBe('');
    }
  });

  it('prints the overall help with --help, listing every command', async () => {
    const run = await runCli(['--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Usage: toolhost');
    for (const command of ['list', 'call', 'serve', 'mcp', 'inspect', 'check', 'new', 'cache']) expect(run.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    expect(run.stdout).toContain('--debug');
  });

  it.each(['list', 'call', 'serve', 'mcp', 'inspect', 'check', 'new', 'cache'])('prints the help of %s with `<command> --help`', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`Usage: toolhost ${command}`);
    expect(run.stderr).toBe('');
  });

  it('treats an unknown command as a usage error: one line, exit 2', async () => {
    const run = await runCli(['lsit']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain("unknown command 'lsit'");
    expect(run.stderr).toContain('list');
  });

  it('treats an unknown option as a usage error with a hint, exit 2', async () => {
    const run = await runCli(['list', '--jsn']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^toolhost: error: unknown option '--jsn'.*--json.*hint: run `toolhost list --help`/);
  });

  it('shows the help on stderr and exits 2 when no command is given', async () => {
    const run = await runCli([]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('Usage: toolhost');
  });
});
