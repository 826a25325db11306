/** `toolhost dispatch`: the CLI edge of POST /v1/dispatch (text tool calls, union turns), run as a subprocess. */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, temporaryDirectory } from './run-cli.ts';

interface DispatchAnswer {
  provider: string;
  results: Array<{ name: string; result: { content: string; is_error: boolean; metadata?: Record<string, unknown> } }>;
  text?: string;
}

describe('toolhost dispatch', () => {
  let workspace: { path: string; remove: () => void };
  beforeEach(() => {
    workspace = temporaryDirectory();
    writeFileSync(join(workspace.path, 'notes.txt'), 'remember the milk\n');
  });
  afterEach(() => workspace.remove());

  it('runs <tool_call> blocks in plain text from stdin and answers with <tool_response> text; a broken block is an error result', async () => {
    const text = 'Let me read it.\n<tool_call>{"name": "read_file", "arguments": {"path": "notes.txt"}}</tool_call>\nand <tool_call>{"name": "grep"';
    const run = await runCli(['dispatch', '--provider', 'text', '--workspace', workspace.path], { input: text });
    expect(run.exitCode, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as DispatchAnswer;
    expect(answer.provider).toBe('text');
    expect(answer.results).toHaveLength(2);
    expect(answer.results[0]).toMatchObject({ name: 'read_file', result: { is_error: false } });
    expect(answer.results[0]?.result.content).toContain('remember the milk');
    expect(answer.results[1]?.result).toMatchObject({ is_error: true, metadata: { reason: 'malformed_tool_call' } });
    expect(answer.text).toMatch(/^<tool_response>\n\{"name":"read_file"/);
  });

  it('runs a guided-decoding union turn from a file, and refuses an invalid one as a usage error without running it', async () => {
    const turn = join(workspace.path, 'turn.json');
    writeFileSync(turn, JSON.stringify({ content: 'writing', tool_calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'hi' } }] }));
    const ran = await runCli(['dispatch', turn, '--provider', 'union', '--workspace', workspace.path]);
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect((JSON.parse(ran.stdout) as DispatchAnswer).results[0]).toMatchObject({ name: 'write_file', result: { is_error: false } });

    writeFileSync(turn, JSON.stringify({ content: '', tool_calls: [{ name: 'write_file', arguments: { path: 'bad.txt' } }, { name: 'no_such_tool', arguments: {} }] }));
    const refused = await runCli(['dispatch', turn, '--provider', 'union', '--workspace', workspace.path]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/no_such_tool|content/);
    expect(refused.stdout).toBe('');
    expect(existsSync(join(workspace.path, 'bad.txt'))).toBe(false); // refused whole: nothing ran
  });

  it('refuses more calls than limits.max_dispatch_calls whole (exit 2, too_many_calls, nothing run); --max-dispatch-calls raises the cap', async () => {
    const text = Array.from({ length: 65 }, (_, i) => `<tool_call>{"name": "write_file", "arguments": {"path": "out-${i}.txt", "content": "x"}}</tool_call>`).join('\n');
    const refused = await runCli(['dispatch', '--provider', 'text', '--workspace', workspace.path], { input: text });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('too_many_calls');
    expect(refused.stderr).toMatch(/65 tool calls.*at most 64.*--max-dispatch-calls/s);
    expect(refused.stdout).toBe('');
    expect(existsSync(join(workspace.path, 'out-0.txt'))).toBe(false);
    const raised = await runCli(['dispatch', '--provider', 'text', '--max-dispatch-calls', '65', '--workspace', workspace.path], { input: text });
    expect(raised.exitCode, raised.stderr).toBe(0);
    expect((JSON.parse(raised.stdout) as DispatchAnswer).results).toHaveLength(65);
    expect(existsSync(join(workspace.path, 'out-64.txt'))).toBe(true);
  }, 60_000);

  it('rejects an unknown provider and non-JSON input for JSON providers (exit 2)', async () => {
    const unknown = await runCli(['dispatch', '--provider', 'smoke-signals', '--workspace', workspace.path], { input: '{}' });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--provider smoke-signals');
    const notJson = await runCli(['dispatch', '--provider', 'anthropic', '--workspace', workspace.path], { input: 'hello' });
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toContain('not valid JSON');
  });
});
