/**
 * `toolhost completion <bash|zsh|fish>`: the scripts come from commander's definitions. The bash one
 * is sourced in a real bash and asked, the way bash asks it on Tab (COMP_WORDS/COMP_CWORD, then the
 * function `complete -p` names), for every command path and flag the program defines, walked from the
 * same program rather than listed here. zsh and fish scripts are syntax-checked by their shells where
 * installed, and checked for every command and flag otherwise.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/output.ts';
import { runCli } from './run-cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'toolhost-completion-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function hasShell(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** Every command of a program with its path, the program included (path []). */
function commandPaths(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  return [{ path, command }, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

/** The program as `toolhost completion` sees it: every command defined. */
async function fullProgram(): Promise<Command> {
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, env: {}, cwd: process.cwd() } as unknown as CliIo;
  return buildProgram({ io, version: '0.0.0', action: (handler) => async (...args) => void (await handler(...args)) }, { defineAll: true });
}

/** Asks the sourced bash script for the completions of a command line whose last word is being typed. */
function bashComplete(script: string, words: readonly string[]): string[] {
  const run = spawnSync(
    'bash',
    [
      '--norc',
      '-c',
      [
        `source ${JSON.stringify(script)}`,
        'spec=$(complete -p toolhost) || exit 3',
        'fn=$(sed -E "s/.*-F ([^ ]+).*/\\1/" <<<"$spec")',
        'COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))',
        '"$fn"',
        'printf "%s\\n" "${COMPREPLY[@]}"',
      ].join('\n'),
      'bash',
      'toolhost',
      ...words,
    ],
    { encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((line) => line !== '');
}

describe.runIf(hasShell('bash'))('toolhost completion bash, sourced in a real bash', () => {
  let script: string;
  let program: Command;

  beforeAll(async () => {
    const printed = await runCli(['completion', 'bash']);
    expect(printed.exitCode, printed.stderr).toBe(0);
    script = join(scratch, 'toolhost.bash');
    writeFileSync(script, printed.stdout);
    program = await fullProgram();
  }, 60_000);

  it('registers a completion function for toolhost, with file names as the fallback', () => {
    const run = spawnSync('bash', ['--norc', '-c', `source ${JSON.stringify(script)}; complete -p toolhost`], { encoding: 'utf8' });
    expect(run.stdout.trim()).toMatch(/^complete -o default -F _toolhost toolhost$/);
  });

  it('completes every command at its place, walked from the program', () => {
    expect(program.commands.map((command) => command.name())).toContain('completion');
    for (const { path, command } of commandPaths(program)) {
      if (command.commands.length === 0) continue;
      expect(bashComplete(script, [...path, '']), path.join(' ')).toEqual(expect.arrayContaining(command.commands.map((sub) => sub.name())));
    }
    expect(bashComplete(script, ['li'])).toEqual(['list']);
    expect(bashComplete(script, ['--debug', 'ca']).sort()).toEqual(['cache', 'call']);
  });

  it("completes every command's flags, long and short, and none of another command's", () => {
    for (const { path, command } of commandPaths(program)) {
      const offered = bashComplete(script, [...path, '-']);
      const defined = command.options.flatMap((option) => [option.long, option.short]).filter((name): name is string => name !== undefined);
      expect(offered, path.join(' ') || '(program)').toEqual(expect.arrayContaining([...defined, '--help']));
    }
    expect(bashComplete(script, ['check', '--'])).not.toContain('--format');
  });

  it('completes option values and positional arguments from their choices, and skips a flag value when finding the command', () => {
    const formats = program.commands.find((command) => command.name() === 'list')?.options.find((option) => option.long === '--format')?.argChoices ?? [];
    expect(formats.length).toBeGreaterThan(2);
    expect(bashComplete(script, ['list', '--format', ''])).toEqual(formats);
    expect(bashComplete(script, ['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete(script, ['new', ''])).toContain('python');
    expect(bashComplete(script, ['new', 'python', ''])).toEqual([]);
    // `cache` here is --workspace's value, not the cache command
    expect(bashComplete(script, ['serve', '--workspace', 'cache', '--p'])).toEqual(expect.arrayContaining(['--port', '--permission-mode']));
    expect(bashComplete(script, ['cache', 'info', '--'])).toContain('--cache-dir');
  });
});

describe('toolhost completion zsh and fish', () => {
  it.each(['zsh', 'fish'] as const)('%s: prints a script naming every command and flag', async (shell) => {
    const printed = await runCli(['completion', shell]);
    expect(printed.exitCode, printed.stderr).toBe(0);
    const program = await fullProgram();
    for (const { command } of commandPaths(program)) {
      expect(printed.stdout).toContain(command.name());
      for (const option of command.options) {
        const long = option.long ?? '';
        expect(printed.stdout).toContain(shell === 'fish' ? `-l ${long.slice(2)}` : long);
      }
    }
    const file = join(scratch, `toolhost.${shell}`);
    writeFileSync(file, printed.stdout);
    if (hasShell(shell)) {
      const checked = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
      expect(checked.status, checked.stderr).toBe(0);
    }
  });

  it('refuses an unknown shell as a usage error', async () => {
    const run = await runCli(['completion', 'powershell']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/bash, zsh, fish/);
  });
});
