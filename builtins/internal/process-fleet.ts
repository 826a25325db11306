/**
 * Background processes in a fleet (the interface; src/state/redis-process-fleet.ts implements it
 * over Redis pub/sub). A process runs on the replica that started it, its owner, whose replica id is
 * part of its `process_id` (`p<N>@<replica id>`, so no lookup is needed to find it). A `process`
 * action for a process owned elsewhere is sent to the owner, which runs it on the process and
 * answers with the ToolResult; `list` asks every live replica. An owner whose lease has lapsed is
 * dead: its processes died with it, and actions on them are answered "lost with replica <id>".
 */
import type { ToolResult } from '../../src/result.ts';

/** A `process` action as sent to the owner: the tool's parsed input. */
export interface ProcessRequest {
  action: 'list' | 'output' | 'wait' | 'kill' | 'write_stdin';
  process_id?: string;
  offset?: number;
  timeout_ms: number;
  input?: string;
  close_stdin: boolean;
  signal: 'SIGTERM' | 'SIGINT' | 'SIGHUP' | 'SIGKILL';
}

/** The owner's answer, or why there is none. */
export type ProcessReply = { ok: true; result: ToolResult } | { ok: false; reason: 'lost' | 'no_answer' | 'unreachable'; message: string };

export interface ProcessFleet {
  readonly replicaId: string;
  /** Runs `request` on `owner` (which answers within `timeoutMs`, else `no_answer`; a dead owner is `lost`). */
  ask(owner: string, request: ProcessRequest, timeoutMs: number, signal?: AbortSignal): Promise<ProcessReply>;
  /** Every live replica's id, this one included. */
  members(): Promise<string[]>;
  /** Answers requests addressed to this replica with `handler`; returns the stop. */
  serve(handler: (request: ProcessRequest) => Promise<ToolResult>): () => void;
}

/** The separator between a process number and its owner in a fleet's process ids. */
export const OWNER_SEPARATOR = '@';

/** The owner replica a fleet process id names, if any (`p3@web-1` → `web-1`). */
export function ownerOf(processId: string): string | undefined {
  const at = processId.indexOf(OWNER_SEPARATOR);
  return at > 0 && at < processId.length - 1 ? processId.slice(at + 1) : undefined;
}
