/**
 * `run_code` needs only read_only itself but can call every tool the host exposes, `shell` included
 * under the execute mode. Listings say what it reaches, not only what it needs: `toolhost list` shows
 * `read_only→<highest level among the listed tools>`, its MCP hints are those of execute with the open
 * world (so a client deciding by readOnlyHint does not auto-approve it), and its description says so.
 */
import { describe, expect, it } from 'vitest';
import { runCodeTool } from '../../builtins/run-code.ts';
import { toMcpTool } from '../../src/schema/providers/mcp.ts';
import { toolReach } from '../../src/tool-reach.ts';
import { runCli } from '../cli/run-cli.ts';

/** The PERMISSION cell of a tool's row in `toolhost list` (columns split on two or more spaces). */
function permissionCell(stdout: string, name: string): string | undefined {
  const row = stdout.split('\n').find((line) => line.startsWith(`${name} `));
  return row?.split(/ {2,}/)[2];
}

describe('run_code lists the level it can reach', () => {
  it('is marked as calling tools, and its description says what that reaches', () => {
    expect(runCodeTool.permission).toBe('read_only');
    expect(runCodeTool.callsTools).toBe(true);
    expect(runCodeTool.description).toMatch(/reaches every tool this host exposes, up to its permission mode/);
  });

  it('reaches the highest level and the network of the tools the host lists', () => {
    const tools = [
      { permission: 'read_only' as const, network: false },
      { permission: 'write' as const, network: false },
    ];
    expect(toolReach(runCodeTool, tools)).toEqual({ permission: 'write', network: false });
    expect(toolReach(runCodeTool, [...tools, { permission: 'none' as const, network: true }])).toEqual({ permission: 'write', network: true });
    expect(toolReach(runCodeTool, [])).toEqual({ permission: 'read_only', network: false });
    // a tool that calls none reaches only itself
    expect(toolReach({ permission: 'read_only', network: false }, [{ permission: 'execute', network: true }])).toEqual({ permission: 'read_only', network: false });
  });

  it('has the MCP hints of the most it can reach (not read-only)', () => {
    expect(toMcpTool(runCodeTool).annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });

  it('toolhost list shows read_only→<mode> under each permission mode, from the real executable', async () => {
    const [execute, write, readOnly] = await Promise.all([
      runCli(['list']),
      runCli(['list', '--permission-mode', 'write']),
      runCli(['list', '--permission-mode', 'read_only']),
    ]);
    for (const run of [execute, write, readOnly]) expect(run.exitCode, run.stderr).toBe(0);
    expect(permissionCell(execute.stdout, 'run_code')).toBe('read_only→execute');
    expect(permissionCell(write.stdout, 'run_code')).toBe('read_only→write');
    expect(permissionCell(readOnly.stdout, 'run_code')).toBe('read_only');
    expect(permissionCell(execute.stdout, 'grep')).toBe('read_only');
  }, 120_000);
});
