/**
 * The `run_code` built-in ("code mode"): a model writes a short JavaScript program that calls tools
 * with `await tools.<name>(args)`, loops and filters in the sandbox, and returns only what it needs,
 * so intermediate results never pass through its context. The code runs in QuickJS compiled to
 * WebAssembly (see internal/quickjs-sandbox.ts), never in Node's `vm`, and never on the daemon's
 * thread: each run goes to an executor process (internal/code-executor/), which the daemon kills at
 * the deadline, on cancellation or past its memory bound, whatever the code is doing. The host's
 * executors are capped in number (RUN_CODE_MAX_CONCURRENT running, RUN_CODE_MAX_QUEUE waiting), so
 * all runs together hold at most RUN_CODE_MAX_CONCURRENT x RUN_CODE_EXECUTOR_RSS_BYTES of memory.
 *
 * Permission: `read_only`. run_code itself touches nothing; every `tools.x()` call goes through the
 * host's call path (`ToolContext.callTool`): the permission mode hides and refuses tools above it,
 * approvals and each tool's policy and limits apply, exactly as if the model had called the tool. So
 * under `read_only` a `tools.write_file()` inside comes back refused, and declaring run_code at the
 * level of the most powerful tool (`execute`) would only hide it from hosts that could use it safely.
 * An approval rule on `run_code` itself can still deny or ask for the whole program. What it can
 * reach is said instead: `callsTools` makes listings show it (`toolhost list`: `read_only→execute`
 * under an execute host; MCP hints as for execute), and the description tells the model and the user.
 */
import { z } from 'zod';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool, type HostResourceKey, type ToolContext } from '../src/tool.ts';
import type { ExecutorOutcome } from './internal/code-executor/executor.ts';
import type { ExecutorRunLimits } from './internal/code-executor/protocol.ts';
import { CodeExecutorPool } from './internal/code-executor/pool.ts';

export const RUN_CODE_MAX_CODE_CHARS = 100_000;
/** Most characters of the returned JSON: a model should return a summary, not a dump. */
export const RUN_CODE_MAX_RESULT_CHARS = 256 * 1024;
export const RUN_CODE_MEMORY_BYTES = 64 * 1024 * 1024;
/** Below the executor thread's own stack, so deep recursion is a RangeError in the code, not an overflow in Node. */
export const RUN_CODE_STACK_BYTES = 256 * 1024;
export const RUN_CODE_CONSOLE_CHARS = 16 * 1024;
export const RUN_CODE_MAX_TOOL_CALLS = 200;
/** Longest JSON arguments of one `tools.x()` call (4x the HTTP edge's default body limit). */
export const RUN_CODE_MAX_CALL_ARGS_CHARS = 4 * 1024 * 1024;
/**
 * Runs at once per host. A fixed number rather than the core count: it is what bounds the memory all
 * runs hold (x RUN_CODE_EXECUTOR_RSS_BYTES), which should not grow with the machine's cores; the
 * executors run at a lower priority than the daemon, and most runs spend their time awaiting tools.
 */
export const RUN_CODE_MAX_CONCURRENT = 4;
/** Runs that may wait for a slot; beyond them a run is refused at once as `busy`, with metadata.retry_after_ms. */
export const RUN_CODE_MAX_QUEUE = 16;
/** Longest wait for a slot before a run is refused as `busy` (the call's own deadline usually ends it sooner, also as `busy`). */
export const RUN_CODE_QUEUE_TIMEOUT_MS = 30_000;
/** Idle executors kept started, so most runs skip Node's start-up. */
export const RUN_CODE_WARM_EXECUTORS = 1;
/** Runs one executor serves before it is replaced. */
export const RUN_CODE_EXECUTOR_MAX_RUNS = 100;
/** Resident size past which the daemon kills an executor (QuickJS's 16 + 64 MiB, V8's heap, Node itself). */
export const RUN_CODE_EXECUTOR_RSS_BYTES = 256 * 1024 * 1024;
/** V8 heap of an executor, MiB: it holds only the engine's glue and the JSON passing through. */
export const RUN_CODE_EXECUTOR_HEAP_MB = 64;
/** Nice value of the executors: the daemon's thread wins the CPU from them. */
export const RUN_CODE_EXECUTOR_NICENESS = 10;

/** The host's executors (one pool per host, closed with it). */
export const runCodeExecutorsKey: HostResourceKey<CodeExecutorPool> = {
  name: 'run_code executors',
  create: () =>
    new CodeExecutorPool({
      maxConcurrent: RUN_CODE_MAX_CONCURRENT,
      maxQueue: RUN_CODE_MAX_QUEUE,
      queueTimeoutMs: RUN_CODE_QUEUE_TIMEOUT_MS,
      maxIdle: RUN_CODE_WARM_EXECUTORS,
      maxRunsPerExecutor: RUN_CODE_EXECUTOR_MAX_RUNS,
      executor: { rssLimitBytes: RUN_CODE_EXECUTOR_RSS_BYTES, heapMb: RUN_CODE_EXECUTOR_HEAP_MB, niceness: RUN_CODE_EXECUTOR_NICENESS },
    }),
};

/** What `tools` offers: every tool the caller may use except run_code (no nesting of sandboxes). */
function toolNamesFor(context: ToolContext): string[] {
  return (context.listTools?.() ?? []).map((tool) => tool.name).filter((name) => name !== 'run_code');
}

function metadataOf(outcome: ExecutorOutcome): Record<string, unknown> {
  return {
    tool_calls: outcome.toolCalls,
    ...(outcome.console.text !== '' ? { console: outcome.console.text } : {}),
    ...(outcome.console.truncated ? { console_truncated: true } : {}),
  };
}

/** A tool call from the sandbox, through the host's call path; its result goes back as JSON. */
function callThroughHost(callTool: NonNullable<ToolContext['callTool']>): (name: string, argsJson: string) => Promise<string> {
  return async (name, argsJson) => {
    try {
      return JSON.stringify(await callTool(name, JSON.parse(argsJson) as unknown));
    } catch (error) {
      return JSON.stringify({ content: `The host failed to run ${name}: ${error instanceof Error ? error.message : String(error)}`, is_error: true });
    }
  };
}

/** The is_error result of a failed run, with a hint for the failures the code can avoid. */
function failureResult(outcome: Extract<ExecutorOutcome, { ok: false }>): ToolResult {
  const metadata = { ...metadataOf(outcome), failure: outcome.failure, ...(outcome.retryAfterMs !== undefined ? { retryable: true, retry_after_ms: outcome.retryAfterMs } : {}) };
  if (outcome.failure === 'result_too_large' || outcome.failure === 'busy') return errorResult(outcome.message, metadata);
  const hint =
    outcome.failure === 'memory'
      ? ` The sandbox has ${RUN_CODE_MEMORY_BYTES / 1024 / 1024} MiB; keep less in memory.`
      : outcome.failure === 'syntax'
        ? ' The code must be a valid async function body (statements, await, return).'
        : '';
  return errorResult(`run_code failed (${outcome.failure}): ${outcome.message}${hint}`, metadata);
}

export const runCodeTool = defineTool({
  name: 'run_code',
  description:
    'Run a JavaScript program that calls tools, to chain many calls without reading every intermediate result. ' +
    'The code is the body of an async function: call a tool with `const r = await tools.read_file({path: "a.txt"})`; ' +
    'each call resolves to that tool\'s result {content, is_error, metadata} (content is text; JSON.parse it when a tool ' +
    'returns JSON). `return` a value: it becomes this result, serialised as JSON. console.log output is kept in metadata.console. ' +
    'Sandboxed (QuickJS in WebAssembly, in a separate process): no require, fetch, timers or file system except through tools, which stay confined ' +
    'to the workspace under the same permissions and approvals as calling them directly. Limits: the call timeout, ' +
    '64 MiB memory, 200 tool calls, ' +
    '256 KiB of returned JSON. Tool signatures: search_tools, or GET /v1/tools/tree over HTTP. ' +
    'It needs only read_only itself but reaches every tool this host exposes, up to its permission mode ' +
    '(under execute, `shell`): it is as powerful as the most powerful of them.',
  permission: 'read_only',
  callsTools: true,
  input: z.object({
    code: z
      .string()
      .min(1)
      .max(RUN_CODE_MAX_CODE_CHARS)
      .describe('JavaScript (ES2023) run as the body of an async function; use await tools.<name>({...}) and return the answer.'),
  }),
  secretParams: [],
  async execute(input, context) {
    const callTool = context.callTool;
    if (!callTool) return errorResult('run_code needs a tool host to call tools through; this caller provides none.');
    const limits: ExecutorRunLimits = {
      deadline: context.deadline,
      memoryBytes: RUN_CODE_MEMORY_BYTES,
      stackBytes: RUN_CODE_STACK_BYTES,
      consoleChars: RUN_CODE_CONSOLE_CHARS,
      maxToolCalls: RUN_CODE_MAX_TOOL_CALLS,
      maxResultChars: RUN_CODE_MAX_RESULT_CHARS,
      maxCallArgsChars: RUN_CODE_MAX_CALL_ARGS_CHARS,
    };
    // A caller without host resources (a tool called directly) gets a pool for this run alone.
    const pool = context.hostResource?.(runCodeExecutorsKey) ?? runCodeExecutorsKey.create();
    const outcome = await pool
      .run({ code: input.code, toolNames: toolNamesFor(context), limits, callTool: callThroughHost(callTool), signal: context.signal })
      .finally(() => (context.hostResource ? undefined : pool.close()));
    if (!outcome.ok) return failureResult(outcome);
    // The executor checks the size before sending; checked again here, where the limit is the daemon's.
    if (outcome.json.length > RUN_CODE_MAX_RESULT_CHARS) {
      return errorResult(`run_code returned ${outcome.json.length} characters of JSON, more than the ${RUN_CODE_MAX_RESULT_CHARS} allowed; return a smaller value (a summary, a slice, counts).`, {
        ...metadataOf(outcome),
        failure: 'result_too_large',
      });
    }
    return textResult(outcome.json, metadataOf(outcome));
  },
});
