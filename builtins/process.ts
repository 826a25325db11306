/**
 * The `process` built-in: the other half of `shell` with `run_in_background`. It lists the host's
 * background processes, reads their new output, waits for them, writes to their stdin and kills them.
 * Every result about one process carries `metadata.running`, and `metadata.exit_code` once it ended.
 *
 * In a fleet a process id names its owner replica (`p1@<replica>`): an action on another replica's
 * process is run there and its answer returned (internal/process-fleet.ts); `list` shows the
 * processes of every live replica; a process whose replica died is reported lost with it.
 */
import { z } from 'zod';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool, type ToolContext } from '../src/tool.ts';
import { completeUtf8Length, leadingContinuationBytes } from './internal/background-output.ts';
import { ownerOf, type ProcessFleet, type ProcessRequest } from './internal/process-fleet.ts';
import {
  BACKGROUND_OUTPUT_BUFFER_BYTES,
  BACKGROUND_STDIN_BUFFER_BYTES,
  backgroundProcessesKey,
  type BackgroundProcess,
  type BackgroundProcesses,
  type BackgroundStatus,
  type StopSignal,
} from './internal/background-processes.ts';
import { formatBytes } from './internal/files.ts';

/** Output bytes one `output` or `wait` call returns at most; the rest is left for the next read. */
export const PROCESS_MAX_READ_BYTES = 100 * 1024;
export const PROCESS_DEFAULT_WAIT_MS = 30_000;
export const PROCESS_MAX_WAIT_MS = 600_000;
/** How long `kill` with a catchable signal waits before it sends SIGKILL to the group. */
export const PROCESS_KILL_GRACE_MS = 2_000;
/**
 * The most text one `write_stdin` call takes (64 KiB of characters): input is checked by the approval
 * rules as a shell script, like shell's command, and has the same cap (SHELL_MAX_COMMAND_CHARS).
 */
export const PROCESS_MAX_STDIN_CHARS = 64 * 1024;

const processInput = z.object({
  action: z
    .enum(['list', 'output', 'wait', 'kill', 'write_stdin'])
    .describe(
      '"list": every background process and its state. "output": the output since the last read. "wait": wait up to ' +
        'timeout_ms for the process to exit, then return its new output. "kill": stop the process and its children. ' +
        '"write_stdin": send input to its stdin.',
    ),
  process_id: z
    .string()
    .min(1)
    .optional()
    .describe('The process, as returned by shell with run_in_background in metadata.process_id (e.g. "p1", or "p1@replica-a" on a fleet). Needed by every action but "list".'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('For "output" and "wait": read from this byte offset (metadata.offset / next_offset of earlier reads) instead of from the last read.'),
  timeout_ms: z
    .number()
    .int()
    .min(0)
    .max(PROCESS_MAX_WAIT_MS)
    .default(PROCESS_DEFAULT_WAIT_MS)
    .describe(`For "wait": milliseconds to wait for the process to exit. Default: ${PROCESS_DEFAULT_WAIT_MS}, at most ${PROCESS_MAX_WAIT_MS}.`),
  input: z
    .string()
    .max(PROCESS_MAX_STDIN_CHARS)
    .optional()
    .describe(
      `For "write_stdin": the text to send, e.g. "yes\\n" (include the newline a line-reading program waits for); at most ${PROCESS_MAX_STDIN_CHARS} characters. ` +
        `Refused when the process has left more than ${formatBytes(BACKGROUND_STDIN_BUFFER_BYTES)} of earlier input unread.`,
    ),
  close_stdin: z.boolean().default(false).describe('For "write_stdin": close stdin after writing, so the process sees end of input. Default: false.'),
  signal: z
    .enum(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'])
    .default('SIGTERM')
    .describe(`For "kill": the signal for the process group. Default: SIGTERM, followed by SIGKILL if it is still running after ${PROCESS_KILL_GRACE_MS} ms.`),
});

type ProcessInput = z.output<typeof processInput>;

/** What an action needs of its call besides the input: when to give up, and the call's cancellation. */
type ActionContext = Pick<ToolContext, 'deadline' | 'signal'>;

/** How long a replica may take to answer an action on its process, beyond the action's own wait. */
const FLEET_ANSWER_MARGIN_MS = 10_000;

export const processTool = defineTool({
  name: 'process',
  // `wait` may take up to PROCESS_MAX_WAIT_MS; the host's deadline leaves it room.
  timeoutMs: PROCESS_MAX_WAIT_MS + 5_000,
  description:
    'Manage background processes started by shell with run_in_background: true. action "list" shows them all; ' +
    '"output" returns what a process printed since the last read (stdout and stderr together) with its byte offset; ' +
    '"wait" waits up to timeout_ms for it to exit and returns the new output; "write_stdin" sends input; "kill" ' +
    'stops it with all its child processes. Results carry metadata.running, and metadata.exit_code once the process ' +
    `has ended. Each process keeps its newest ${formatBytes(BACKGROUND_OUTPUT_BUFFER_BYTES)} of output (older output ` +
    `is dropped and counted in metadata.dropped_bytes); one read returns at most ${formatBytes(PROCESS_MAX_READ_BYTES)}, ` +
    'and metadata.more says whether there is more to read. Background processes run in the workspace with the same ' +
    'isolation and minimal environment as shell, and are killed when the host stops.',
  permission: 'execute',
  input: processInput,
  secretParams: [],
  async execute(input, context) {
    if (!context.hostResource) {
      return errorResult('Background processes need a running tool host to keep them; this caller provides none.');
    }
    const processes = context.hostResource(backgroundProcessesKey);
    const { fleet } = processes;
    if (fleet !== undefined) {
      if (input.action === 'list') return listFleetProcesses(processes, fleet, context);
      const owner = input.process_id === undefined ? undefined : ownerOf(input.process_id);
      if (owner !== undefined && owner !== fleet.replicaId) return askOwner(fleet, owner, input, context);
    }
    return answerProcessRequest(processes, input, context);
  },
});

/** A request another replica sent (internal/process-fleet.ts), checked as the tool's own input is; undefined when malformed. */
export function parseProcessRequest(request: unknown): ProcessInput | undefined {
  const parsed = processInput.safeParse(request);
  return parsed.success ? parsed.data : undefined;
}

/** Runs an action on this replica's own processes (for a local call, or for another replica that asked). */
export async function answerProcessRequest(processes: BackgroundProcesses, input: ProcessInput, context: ActionContext): Promise<ToolResult> {
  if (input.action === 'list') return listProcesses(processes);
  if (input.process_id === undefined) {
    return errorResult(`Action "${input.action}" needs process_id: the metadata.process_id shell returned for run_in_background. Use action "list" to see them.`);
  }
  const found = processes.get(input.process_id);
  if (!found) {
    const known = processes.list().map((candidate) => candidate.id);
    return errorResult(
      `No background process "${input.process_id}" on this host` +
        (known.length > 0 ? ` (known: ${known.join(', ')}).` : ' (none has been started, or the host restarted).') +
        ' Use action "list" to see them.',
    );
  }
  switch (input.action) {
    case 'output':
      return readOutput(found, input, '');
    case 'wait':
      return waitFor(found, input, context);
    case 'kill':
      return kill(found, input, context);
    case 'write_stdin':
      return writeStdin(found, input);
  }
}

/** An action on another replica's process, run there. */
async function askOwner(fleet: ProcessFleet, owner: string, input: ProcessInput, context: ToolContext): Promise<ToolResult> {
  const id = input.process_id ?? '';
  const remaining = Math.max(0, context.deadline - Date.now());
  const timeoutMs = Math.min(remaining, (input.action === 'wait' ? input.timeout_ms : PROCESS_KILL_GRACE_MS * 2) + FLEET_ANSWER_MARGIN_MS);
  const reply = await fleet.ask(owner, toRequest(input), timeoutMs, context.signal);
  if (reply.ok) return reply.result;
  if (reply.reason === 'lost') {
    return errorResult(
      `process ${id} was lost with replica ${owner}: that replica stopped (its processes ended with it). Start the command again with shell and run_in_background.`,
      { process_id: id, reason: 'process_lost', replica: owner, running: false },
    );
  }
  return errorResult(`Replica ${owner}, which runs process ${id}, did not answer: ${reply.message}. Retry the action.`, { process_id: id, reason: 'process_unreachable', replica: owner });
}

/** `list` in a fleet: this replica's processes and every other live replica's, by replica. */
async function listFleetProcesses(processes: BackgroundProcesses, fleet: ProcessFleet, context: ToolContext): Promise<ToolResult> {
  const statuses: Array<BackgroundStatus & { replica: string }> = processes.list().map((candidate) => ({ ...candidate.status(), replica: fleet.replicaId }));
  const silent: string[] = [];
  let members: string[] = [];
  try {
    members = await fleet.members();
  } catch (error) {
    silent.push(`the fleet's replicas could not be listed (${error instanceof Error ? error.message : String(error)})`);
  }
  const request: ProcessRequest = { action: 'list', timeout_ms: 0, close_stdin: false, signal: 'SIGTERM' };
  const timeoutMs = Math.min(Math.max(0, context.deadline - Date.now()), FLEET_ANSWER_MARGIN_MS);
  const replies = await Promise.all(members.filter((member) => member !== fleet.replicaId).map(async (member) => ({ member, reply: await fleet.ask(member, request, timeoutMs, context.signal) })));
  for (const { member, reply } of replies) {
    const listed = reply.ok ? reply.result.metadata?.['processes'] : undefined;
    if (!Array.isArray(listed)) {
      silent.push(`replica ${member} did not answer`);
      continue;
    }
    for (const status of listed as BackgroundStatus[]) statuses.push({ ...status, replica: member });
  }
  const notes = silent.length > 0 ? [`[not listed: ${silent.join('; ')}]`] : [];
  if (statuses.length === 0) return textResult(['No background processes on any replica. Start one with shell and run_in_background: true.', ...notes].join('\n'), { processes: [], replicas: members });
  const lines = statuses.map((status) => `${status.process_id}  ${describeState(status)}  ${status.unread_bytes} bytes unread  cwd ${status.cwd}  $ ${status.command}`);
  return textResult([...lines, ...notes].join('\n'), { processes: statuses, replicas: members });
}

function toRequest(input: ProcessInput): ProcessRequest {
  return {
    action: input.action,
    ...(input.process_id !== undefined ? { process_id: input.process_id } : {}),
    ...(input.offset !== undefined ? { offset: input.offset } : {}),
    timeout_ms: input.timeout_ms,
    ...(input.input !== undefined ? { input: input.input } : {}),
    close_stdin: input.close_stdin,
    signal: input.signal,
  };
}

function describeState(status: BackgroundStatus): string {
  if (status.running) return 'running';
  if (status.spawn_error !== undefined) return `could not be started: ${status.spawn_error}`;
  if (status.ended_by === 'shutdown') return `killed by signal ${status.signal ?? 'SIGKILL'}: this toolhost replica is shutting down`;
  if (status.exit_code !== null && status.exit_code !== undefined) return `exited with code ${status.exit_code}`;
  return `killed by signal ${status.signal ?? 'unknown'}`;
}

function listProcesses(processes: BackgroundProcesses): ToolResult {
  const statuses = processes.list().map((candidate) => candidate.status());
  if (statuses.length === 0) return textResult('No background processes. Start one with shell and run_in_background: true.', { processes: [] });
  const lines = statuses.map(
    (status) => `${status.process_id}  ${describeState(status)}  ${status.unread_bytes} bytes unread  cwd ${status.cwd}  $ ${status.command}`,
  );
  return textResult(lines.join('\n'), { processes: statuses });
}

/**
 * The output from `input.offset`, else from the last read, up to PROCESS_MAX_READ_BYTES, never ending
 * inside a UTF-8 character while more may follow; the read position moves past what is returned.
 */
function readOutput(target: BackgroundProcess, input: ProcessInput, note: string, extra: Record<string, unknown> = {}): ToolResult {
  const status = target.status();
  const from = input.offset ?? target.readOffset;
  const slice = target.output.read(from, PROCESS_MAX_READ_BYTES);
  let bytes = slice.bytes;
  let offset = slice.offset;
  // A read that starts where bytes were dropped (or at a caller's offset) may begin inside a character.
  if (offset !== from || input.offset !== undefined) {
    const skip = leadingContinuationBytes(bytes);
    bytes = bytes.subarray(skip);
    offset += skip;
  }
  const more = slice.nextOffset < target.output.totalBytes;
  if (more || status.running) bytes = bytes.subarray(0, completeUtf8Length(bytes));
  const nextOffset = offset + bytes.length;
  target.readOffset = Math.max(target.readOffset, nextOffset);
  const text = bytes.toString('utf8');
  const parts: string[] = [];
  if (slice.droppedBytes > 0) parts.push(`[${slice.droppedBytes} older bytes were dropped from the buffer before they were read]`);
  parts.push(text.length > 0 ? (text.endsWith('\n') ? text.slice(0, -1) : text) : '(no new output)');
  if (note) parts.push(note);
  const moreNote = nextOffset < target.output.totalBytes ? '; more output is waiting, read again' : '';
  parts.push(`[process ${target.id} ${describeState(status)}${moreNote}]`);
  const metadata: Record<string, unknown> = {
    process_id: target.id,
    running: status.running,
    offset,
    next_offset: nextOffset,
    bytes: bytes.length,
    dropped_bytes: slice.droppedBytes,
    more: nextOffset < target.output.totalBytes,
    ...extra,
  };
  if (!status.running) {
    metadata['exit_code'] = status.exit_code ?? null;
    metadata['signal'] = status.signal ?? null;
  }
  if (status.spawn_error !== undefined) metadata['spawn_error'] = status.spawn_error;
  if (status.ended_by !== undefined) metadata['ended_by'] = status.ended_by;
  return textResult(parts.join('\n'), metadata);
}

async function waitFor(target: BackgroundProcess, input: ProcessInput, context: ActionContext): Promise<ToolResult> {
  const timeoutMs = Math.min(input.timeout_ms, Math.max(0, context.deadline - Date.now()));
  const exited = await target.waitForExit(timeoutMs, context.signal);
  const note = exited ? '' : context.signal.aborted ? '[the wait was cancelled]' : `[still running after waiting ${timeoutMs} ms]`;
  return readOutput(target, input, note, { wait_timed_out: !exited });
}

async function kill(target: BackgroundProcess, input: ProcessInput, context: ActionContext): Promise<ToolResult> {
  if (!target.running) return readOutput(target, input, '[the process had already ended]');
  const sent: StopSignal[] = [input.signal];
  target.signal(input.signal);
  if (input.signal !== 'SIGKILL' && !(await target.waitForExit(PROCESS_KILL_GRACE_MS, context.signal))) {
    target.signal('SIGKILL');
    sent.push('SIGKILL');
  }
  await target.waitForExit(PROCESS_KILL_GRACE_MS, context.signal);
  const note =
    sent.length > 1
      ? `[sent ${input.signal} to the process group; it was still running ${PROCESS_KILL_GRACE_MS} ms later, so SIGKILL followed]`
      : `[sent ${input.signal} to the process group]`;
  return readOutput(target, input, note, { sent_signals: sent });
}

function writeStdin(target: BackgroundProcess, input: ProcessInput): ToolResult {
  if (input.input === undefined && !input.close_stdin) {
    return errorResult('Action "write_stdin" needs input (the text to send), or close_stdin: true to close stdin.');
  }
  const written = target.writeStdin(input.input ?? '', input.close_stdin);
  const status = target.status();
  const state: Record<string, unknown> = { process_id: target.id, running: status.running };
  if (!status.running) state['exit_code'] = status.exit_code ?? null;
  if (!written.ok) {
    return errorResult(written.message, { ...state, ...(written.bufferedBytes !== undefined ? { stdin_pending_bytes: written.bufferedBytes, stdin_buffer_limit_bytes: BACKGROUND_STDIN_BUFFER_BYTES } : {}) });
  }
  const sent = Buffer.byteLength(input.input ?? '');
  return textResult(
    `Sent ${sent} bytes to the stdin of process ${target.id}${input.close_stdin ? ' and closed it' : ''}. Use action "output" or "wait" to see its answer.`,
    { ...state, bytes_written: sent, stdin_closed: input.close_stdin, stdin_pending_bytes: written.bufferedBytes },
  );
}
