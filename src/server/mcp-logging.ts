/**
 * MCP logging (capability `logging`): what a tool call has to say besides its result, as
 * `notifications/message` under the call's logger name `toolhost.tool.<tool name>`:
 * - each line the tool wrote to stderr (the part its result keeps, `metadata.stderr`: the tail, and
 *   the head too when the call failed), as a string. Its level comes from a leading `error:`,
 *   `warning:`, `notice:`, `info:`, `debug:` (or `[error]`, …; also `warn`, `err`, `fatal`, `trace`,
 *   any case); an unmarked line is `info`, or `error` when the call failed.
 * - the host's warnings about the call, as `{message, reason, …}`: network requests its policy
 *   refused, output cut at the limit (`warning`), refusals (approval, quota, permission, queue:
 *   `warning`), a timeout, running out of memory or a trap (`error`).
 * A session shows messages at its level or above (`logging/setLevel`; `DEFAULT_MCP_LOG_LEVEL` until
 * the client sets one). At most `MAX_LOG_MESSAGES_PER_CALL` per call: the host's first, then the last
 * stderr lines, with one notice saying how many lines were left out.
 *
 * The messages are derived from the finished call's result, so they arrive just before it, unless
 * someone listens to the call while it runs (a progress token, or a level the client set): then its
 * stderr lines go out as they are written (mcp-call-events.ts) and only the host's warnings remain
 * for the end.
 */
import { LoggingLevelSchema, type LoggingLevel, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../json-value.ts';
import type { ToolResult } from '../result.ts';

export type McpLogMessage = LoggingMessageNotification['params'];

/** The logger name of a call's messages is this prefix and the tool's name. */
export const MCP_TOOL_LOGGER_PREFIX = 'toolhost.tool.';
/** The level a session shows until its client sends `logging/setLevel`. */
export const DEFAULT_MCP_LOG_LEVEL: LoggingLevel = 'info';
/** The most log messages one call sends. */
export const MAX_LOG_MESSAGES_PER_CALL = 100;
/** The longest host warning text sent (a refusal's result text can be long). */
const MAX_WARNING_CHARS = 500;

const SEVERITY: ReadonlyMap<LoggingLevel, number> = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

/** Leading level words of a stderr line (`warning: x`, `[warn] x`), lower-cased. */
const LINE_LEVELS: ReadonlyMap<string, LoggingLevel> = new Map([
  ['trace', 'debug'],
  ['debug', 'debug'],
  ['info', 'info'],
  ['notice', 'notice'],
  ['warn', 'warning'],
  ['warning', 'warning'],
  ['err', 'error'],
  ['error', 'error'],
  ['fatal', 'critical'],
  ['critical', 'critical'],
]);
/** Anchored, one bounded word: linear in the line. */
const LEADING_LEVEL = /^\s{0,8}(?:\[([A-Za-z]{1,8})\]|([A-Za-z]{1,8}):)/;

/** Refusals a result names in `metadata.reason` that are worth a warning of their own. */
const REFUSAL_REASONS: ReadonlySet<string> = new Set([
  'approval_denied',
  'approval_timeout',
  'approval_unavailable',
  'quota_exceeded',
  'permission',
  'excluded',
  'queue_full',
  'arguments_too_large',
]);

export function toolLoggerName(toolName: string): string {
  return `${MCP_TOOL_LOGGER_PREFIX}${toolName}`;
}

/** Whether a message at `level` is shown to a session whose level is `threshold`. */
export function isLevelShown(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return (SEVERITY.get(level) ?? 0) >= (SEVERITY.get(threshold) ?? 0);
}

/** The level a stderr line states at its start, if any. */
export function stderrLineLevel(line: string): LoggingLevel | undefined {
  const match = LEADING_LEVEL.exec(line);
  const word = match?.[1] ?? match?.[2];
  return word === undefined ? undefined : LINE_LEVELS.get(word.toLowerCase());
}

function cut(text: string): string {
  return text.length <= MAX_WARNING_CHARS ? text : `${text.slice(0, MAX_WARNING_CHARS)}…`;
}

function hostWarnings(result: ToolResult, logger: string): McpLogMessage[] {
  const metadata = result.metadata ?? {};
  const warnings: McpLogMessage[] = [];
  const reason = metadata['reason'];
  if (typeof reason === 'string' && REFUSAL_REASONS.has(reason)) {
    warnings.push({ level: 'warning', logger, data: { message: cut(result.content), reason } });
  }
  const network = metadata['network'];
  if (isPlainObject(network) && Array.isArray(network['denials'])) {
    for (const denial of network['denials']) {
      if (!isPlainObject(denial)) continue;
      const { kind, host, port, reason: why } = denial;
      warnings.push({ level: 'warning', logger, data: { message: `network request denied by policy: ${String(kind)} ${String(host)}:${String(port)} (${String(why)})`, reason: 'network_denied', kind, host, port } });
    }
  }
  if (metadata['truncated'] === true) {
    warnings.push({ level: 'warning', logger, data: { message: 'output truncated: the tool wrote more than its output limit; the rest was dropped', reason: 'truncated' } });
  }
  if (metadata['timed_out'] === true) warnings.push({ level: 'error', logger, data: { message: cut(result.content), reason: 'timed_out' } });
  else if (metadata['out_of_memory'] === true) warnings.push({ level: 'error', logger, data: { message: cut(result.content.split('\n', 1)[0] ?? ''), reason: 'out_of_memory' } });
  else if (typeof metadata['trap'] === 'string') warnings.push({ level: 'error', logger, data: { message: `the tool crashed (wasm trap): ${cut(metadata['trap'])}`, reason: 'trap' } });
  return warnings;
}

function stderrLines(result: ToolResult): string[] {
  const stderr = result.metadata?.['stderr'];
  if (typeof stderr !== 'string') return [];
  return stderr
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
}

/** What was already sent while the call ran (mcp-call-events.ts). */
export interface StreamedLog {
  /** The stderr lines went out live: leave them out here. */
  stderrSent: boolean;
  /** Live lines left out over the per-call cap. */
  droppedLines: number;
}

/**
 * The log messages of one finished call of `toolName` (see the module comment), at most
 * `MAX_LOG_MESSAGES_PER_CALL`, in the order to send them. Not filtered by level. With `streamed`,
 * the stderr lines were sent while the call ran: only the host's warnings (and a notice of the lines
 * left out) remain.
 */
export function callLogMessages(toolName: string, result: ToolResult, streamed?: StreamedLog): McpLogMessage[] {
  const logger = toolLoggerName(toolName);
  const messages = hostWarnings(result, logger).slice(0, MAX_LOG_MESSAGES_PER_CALL);
  if (streamed?.stderrSent === true) {
    if (streamed.droppedLines > 0) {
      messages.push({ level: 'notice', logger, data: { message: `${streamed.droppedLines} later stderr lines not sent (at most ${MAX_LOG_MESSAGES_PER_CALL} messages per call)`, reason: 'log_lines_dropped' } });
    }
    return messages;
  }
  const lines = stderrLines(result);
  const room = MAX_LOG_MESSAGES_PER_CALL - messages.length;
  if (room <= 0) return messages;
  const unmarked: LoggingLevel = result.is_error ? 'error' : 'info';
  let kept = lines;
  if (lines.length > room) {
    kept = lines.slice(lines.length - (room - 1));
    messages.push({ level: 'notice', logger, data: { message: `${lines.length - kept.length} earlier stderr lines not sent (at most ${MAX_LOG_MESSAGES_PER_CALL} messages per call)`, reason: 'log_lines_dropped' } });
  }
  for (const line of kept) messages.push({ level: stderrLineLevel(line) ?? unmarked, logger, data: line });
  return messages;
}
