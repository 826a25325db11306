/**
 * The daemon test/bench/run-code-liveness.ts measures: the shipped built-ins (so `run_code` runs in
 * executor processes) plus `run_code_in_thread`, the sandbox as it ran before this change (QuickJS on
 * the daemon's thread, 1 s of computing between awaits), served on a loopback port. Prints the URL.
 *   node --import tsx test/bench/run-code-bench-daemon.ts <workspace> <timeout_ms>
 */
import { z } from 'zod';
import { builtinTools } from '../../builtins/index.ts';
import { runInSandbox } from '../../builtins/internal/quickjs-sandbox.ts';
import {
  RUN_CODE_CONSOLE_CHARS,
  RUN_CODE_MAX_CALL_ARGS_CHARS,
  RUN_CODE_MAX_RESULT_CHARS,
  RUN_CODE_MAX_TOOL_CALLS,
  RUN_CODE_MEMORY_BYTES,
  RUN_CODE_STACK_BYTES,
} from '../../builtins/run-code.ts';
import { createHost } from '../../src/host.ts';
import { errorResult, textResult } from '../../src/result.ts';
import { startServer } from '../../src/server/serve.ts';
import { defineTool } from '../../src/tool.ts';

const [workspace, timeoutMs] = process.argv.slice(2);
if (workspace === undefined || timeoutMs === undefined) throw new Error('usage: run-code-bench-daemon.ts <workspace> <timeout_ms>');

/** The pre-executor path: the same sandbox, in the daemon's thread. */
const runCodeInThread = defineTool({
  name: 'run_code_in_thread',
  description: 'run_code as it ran before executors: QuickJS on the daemon thread (bench only).',
  permission: 'read_only',
  input: z.object({ code: z.string() }),
  secretParams: [],
  async execute(input, context) {
    const callTool = context.callTool;
    if (!callTool) return errorResult('no host');
    const names = (context.listTools?.() ?? []).map((tool) => tool.name).filter((name) => !name.startsWith('run_code'));
    const outcome = await runInSandbox(
      input.code,
      { toolNames: names, signal: context.signal, callTool: async (name, argsJson) => JSON.stringify(await callTool(name, JSON.parse(argsJson) as unknown)) },
      {
        deadline: context.deadline,
        sliceMs: 1_000,
        memoryBytes: RUN_CODE_MEMORY_BYTES,
        stackBytes: RUN_CODE_STACK_BYTES,
        consoleChars: RUN_CODE_CONSOLE_CHARS,
        maxToolCalls: RUN_CODE_MAX_TOOL_CALLS,
        maxResultChars: RUN_CODE_MAX_RESULT_CHARS,
        maxCallArgsChars: RUN_CODE_MAX_CALL_ARGS_CHARS,
      },
    );
    return outcome.ok ? textResult(outcome.json) : errorResult(`run_code failed (${outcome.failure}): ${outcome.message}`, { failure: outcome.failure });
  },
});

const host = await createHost({ workspaceRoot: workspace, limits: { timeoutMs: Number(timeoutMs) } }, { builtinTools: [...builtinTools, runCodeInThread] });
const server = await startServer(host, { port: 0, keepAliveMs: 0 });
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => void server.close(2_000).then(() => process.exit(0)));
