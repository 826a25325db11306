/**
 * The `run_code` built-in ("code mode"): a model writes a short JavaScript program that calls tools
 * with `await tools.<name>(args)`, loops and filters in the sandbox, and returns only what it needs,
 * so intermediate results never pass through its context. The code runs in QuickJS compiled to
 * WebAssembly (see internal/quickjs-sandbox.ts), never in Node's `vm`.
 *
 * Permission: `read_only`. run_code itself touches nothing; every `tools.x()` call goes through the
 * host's call path (`ToolContext.callTool`): the permission mode hides and refuses tools above it,
 * approvals and each tool's policy and limits apply, exactly as if the model had called the tool. So
 * under `read_only` a `tools.write_file()` inside comes back refused, and declaring run_code at the
 * level of the most powerful tool (`execute`) would only hide it from hosts that could use it safely.
 * An approval rule on `run_code` itself can still deny or ask for the whole program.
 */
import { z } from 'zod';
import { errorResult, textResult } from '../src/result.ts';
import { defineTool, type ToolContext } from '../src/tool.ts';
import { runInSandbox, type SandboxLimits, type SandboxOutcome } from './internal/quickjs-sandbox.ts';

export const RUN_CODE_MAX_CODE_CHARS = 100_000;
/** Most characters of the returned JSON: a model should return a summary, not a dump. */
export const RUN_CODE_MAX_RESULT_CHARS = 256 * 1024;
export const RUN_CODE_MEMORY_BYTES = 64 * 1024 * 1024;
/** Below the host thread's own stack, so deep recursion is a RangeError in the code, not an overflow in Node. */
export const RUN_CODE_STACK_BYTES = 256 * 1024;
export const RUN_CODE_CONSOLE_CHARS = 16 * 1024;
export const RUN_CODE_MAX_TOOL_CALLS = 200;
/** Longest computing between awaits: the sandbox shares the host's thread (see SandboxLimits.sliceMs). */
export const RUN_CODE_SLICE_MS = 1_000;

/** What `tools` offers: every tool the caller may use except run_code (no nesting of sandboxes). */
function toolNamesFor(context: ToolContext): string[] {
  return (context.listTools?.() ?? []).map((tool) => tool.name).filter((name) => name !== 'run_code');
}

function metadataOf(outcome: SandboxOutcome): Record<string, unknown> {
  return {
    tool_calls: outcome.toolCalls,
    ...(outcome.console.text !== '' ? { console: outcome.console.text } : {}),
    ...(outcome.console.truncated ? { console_truncated: true } : {}),
  };
}

export const runCodeTool = defineTool({
  name: 'run_code',
  description:
    'Run a JavaScript program that calls tools, to chain many calls without reading every intermediate result. ' +
    'The code is the body of an async function: call a tool with `const r = await tools.read_file({path: "a.txt"})`; ' +
    'each call resolves to that tool\'s result {content, is_error, metadata} (content is text; JSON.parse it when a tool ' +
    'returns JSON). `return` a value: it becomes this result, serialised as JSON. console.log output is kept in metadata.console. ' +
    'Sandboxed (QuickJS in WebAssembly): no require, fetch, timers or file system except through tools, which stay confined ' +
    'to the workspace under the same permissions and approvals as calling them directly. Limits: the call timeout, ' +
    '1 s of computing between awaits, 64 MiB memory, 200 tool calls, ' +
    '256 KiB of returned JSON. Tool signatures: search_tools, or GET /v1/tools/tree over HTTP.',
  permission: 'read_only',
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
    const limits: SandboxLimits = {
      deadline: context.deadline,
      sliceMs: RUN_CODE_SLICE_MS,
      memoryBytes: RUN_CODE_MEMORY_BYTES,
      stackBytes: RUN_CODE_STACK_BYTES,
      consoleChars: RUN_CODE_CONSOLE_CHARS,
      maxToolCalls: RUN_CODE_MAX_TOOL_CALLS,
    };
    const outcome = await runInSandbox(input.code, { toolNames: toolNamesFor(context), callTool, signal: context.signal }, limits);
    const metadata = metadataOf(outcome);
    if (!outcome.ok) {
      const hint =
        outcome.failure === 'memory'
          ? ` The sandbox has ${RUN_CODE_MEMORY_BYTES / 1024 / 1024} MiB; keep less in memory.`
          : outcome.failure === 'syntax'
            ? ' The code must be a valid async function body (statements, await, return).'
            : '';
      return errorResult(`run_code failed (${outcome.failure}): ${outcome.message}${hint}`, { ...metadata, failure: outcome.failure });
    }
    if (outcome.json.length > RUN_CODE_MAX_RESULT_CHARS) {
      return errorResult(
        `run_code returned ${outcome.json.length} characters of JSON, more than the ${RUN_CODE_MAX_RESULT_CHARS} allowed; return a smaller value (a summary, a slice, counts).`,
        { ...metadata, failure: 'result_too_large' },
      );
    }
    return textResult(outcome.json, metadata);
  },
});
