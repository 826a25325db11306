/**
 * The messages between the daemon and a `run_code` executor process (child.ts), over the IPC channel
 * `child_process.fork` opens. One run at a time per executor; every message of a run carries its
 * `run` id, so a late message from a run the daemon already gave up on is recognised and dropped.
 *
 * daemon → executor: `run` (the code, the tools it may call, its limits), `tool_result` (the answer
 * to one `tool_call`, the tool's ToolResult as JSON).
 * executor → daemon: `ready` (the engine package is loaded: the executor can take a run), `tool_call`
 * (the guest awaited `tools.<name>(args)`), `console` (one kept line of console output, sent as it is
 * printed so a run killed later keeps what it printed), `done` (how the run ended).
 *
 * The executor is the project's own code, but it runs untrusted programs, so the daemon treats what
 * it sends as untrusted too: `parseExecutorMessage` checks every field before anything is used.
 */
import type { SandboxFailure } from '../quickjs-sandbox.ts';

/** What one run may use inside the executor (the daemon enforces time, memory and call count again itself). */
export interface ExecutorRunLimits {
  /** Epoch milliseconds: the executor stops the guest then (the daemon kills the process at it regardless). */
  deadline: number;
  memoryBytes: number;
  stackBytes: number;
  consoleChars: number;
  maxToolCalls: number;
  /** Longest JSON result the executor sends back; a longer one ends the run as `result_too_large` (the text stays in the engine). */
  maxResultChars: number;
  /** Longest JSON arguments of one `tools.x()` call; a longer one is a RangeError in the guest. */
  maxCallArgsChars: number;
}

export interface RunMessage {
  type: 'run';
  run: number;
  code: string;
  toolNames: string[];
  limits: ExecutorRunLimits;
}

export interface ToolResultMessage {
  type: 'tool_result';
  run: number;
  call: number;
  /** The tool's ToolResult, serialised. */
  json: string;
}

export type DaemonMessage = RunMessage | ToolResultMessage;

/** Failures an executor reports itself (the daemon adds `crashed`, `busy` and its own `timeout`/`cancelled`/`memory` kills). */
export type ExecutorFailure = SandboxFailure;

export type RunEnding = { ok: true; json: string } | { ok: false; failure: ExecutorFailure; message: string };

export type ExecutorMessage =
  | { type: 'ready' }
  | { type: 'tool_call'; run: number; call: number; name: string; argsJson: string }
  /** `line`: a console line the executor kept (null when it only reports that output was cut). */
  | { type: 'console'; run: number; line: string | null; truncated: boolean }
  | { type: 'done'; run: number; toolCalls: number; ending: RunEnding };

const EXECUTOR_FAILURES: ReadonlySet<string> = new Set<ExecutorFailure>(['syntax', 'exception', 'timeout', 'cancelled', 'memory', 'never_settles', 'result_too_large']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function parseEnding(value: unknown): RunEnding | undefined {
  if (!isRecord(value)) return undefined;
  if (value['ok'] === true && typeof value['json'] === 'string') return { ok: true, json: value['json'] };
  const failure = value['failure'];
  if (value['ok'] === false && typeof failure === 'string' && EXECUTOR_FAILURES.has(failure) && typeof value['message'] === 'string') {
    return { ok: false, failure: failure as ExecutorFailure, message: value['message'] };
  }
  return undefined;
}

/** A message from an executor, checked field by field; undefined for anything malformed. */
export function parseExecutorMessage(value: unknown): ExecutorMessage | undefined {
  if (!isRecord(value)) return undefined;
  switch (value['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'tool_call': {
      const { run, call, name, argsJson } = value;
      if (isCount(run) && isCount(call) && typeof name === 'string' && typeof argsJson === 'string') return { type: 'tool_call', run, call, name, argsJson };
      return undefined;
    }
    case 'console': {
      const { run, line, truncated } = value;
      if (isCount(run) && (line === null || typeof line === 'string') && typeof truncated === 'boolean') return { type: 'console', run, line, truncated };
      return undefined;
    }
    case 'done': {
      const { run, toolCalls } = value;
      const ending = parseEnding(value['ending']);
      if (isCount(run) && isCount(toolCalls) && ending) return { type: 'done', run, toolCalls, ending };
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A message from the daemon, as the executor reads it (the daemon is trusted; this only narrows the type). */
export function isDaemonMessage(value: unknown): value is DaemonMessage {
  return isRecord(value) && (value['type'] === 'run' || value['type'] === 'tool_result');
}
