/**
 * `toolhost call` with an `ask` rule: a terminal gets a y/N/a prompt (a real pseudo-terminal through
 * util-linux `script`), anything else is refused with the reason.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliCommand, cliEnvironment, runCli, temporaryDirectory } from '../cli/run-cli.ts';

const workspaces: Array<{ remove: () => void }> = [];
afterEach(() => {
  for (const workspace of workspaces.splice(0)) workspace.remove();
});

function workspaceWithRules(): { path: string; config: string } {
  const workspace = temporaryDirectory('toolhost-approvals-cli-');
  workspaces.push(workspace);
  const config = join(workspace.path, 'toolhost.json');
  writeFileSync(config, JSON.stringify({ approvals: [{ tool: 'shell', match: { command: 'echo *' }, action: 'ask' }] }));
  return { path: workspace.path, config };
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Runs the CLI on a pseudo-terminal and types `answer` into it. */
function onTerminal(args: string[], cwd: string, answer: string): Promise<{ output: string; exitCode: number | null }> {
  const [node, prefix] = cliCommand('src');
  const commandLine = [node, ...prefix, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    // `script -e` exits with the command's status; the pty turns our piped answer into typed input.
    const child = spawn('script', ['-qec', commandLine, '/dev/null'], { cwd, env: cliEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!answered && output.includes('[a]lways')) {
        answered = true;
        child.stdin.write(answer);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ output, exitCode }));
  });
}

describe('toolhost call with an ask rule', { timeout: 60_000 }, () => {
  it('refuses with the reason when stdin is not a terminal', async () => {
    const { path, config } = workspaceWithRules();
    const run = await runCli(['call', 'shell', '{"command": "echo hi"}', '--config', config], { cwd: path, input: '' });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('needs the user\'s approval, but nobody could be asked: stdin is not a terminal');
    expect(run.stdout).toBe('');
    // Calls no rule matches run as before.
    const other = await runCli(['call', 'shell', '{"command": "printf plain"}', '--config', config], { cwd: path, input: '' });
    expect(other.exitCode).toBe(0);
    expect(other.stdout).toContain('plain');
  });

  it('prompts on a terminal: y runs the call', async () => {
    const { path, config } = workspaceWithRules();
    const run = await onTerminal(['call', 'shell', '{"command": "echo approved-run"}', '--config', config], path, 'y\n');
    expect(run.output).toContain('the call to "shell" needs your approval');
    expect(run.output).toContain('"command":"echo approved-run"');
    expect(run.output).toMatch(/approved-run\r?\n[\s\S]*$/);
    expect(run.exitCode).toBe(0);
  });

  it('prompts on a terminal: n refuses the call', async () => {
    const { path, config } = workspaceWithRules();
    const run = await onTerminal(['call', 'shell', '{"command": "echo never-run"}', '--config', config], path, 'n\n');
    expect(run.output).toContain('The user denied this call to shell');
    expect(run.exitCode).toBe(1);
  });
});
