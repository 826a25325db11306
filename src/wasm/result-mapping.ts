/**
 * Maps a call's outcome to the one ToolResult shape. A tool answers through stdout: one JSON object
 * `{content, error | is_error, metadata}` is read as such; anything else is the content as text.
 */
import type { ToolResult } from '../result.ts';
import type { RunOutcome } from './run-types.ts';

/** Bytes of stderr kept in results (its tail). */
export const STDERR_TAIL_BYTES = 4096;
export const TRUNCATION_MARKER = '\n[output truncated: the tool wrote more than the output limit]';

const decoder = new TextDecoder('utf-8', { fatal: false });

function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The last `STDERR_TAIL_BYTES` of stderr as text, cut at a character boundary. */
export function stderrTail(stderr: Uint8Array): string {
  if (stderr.length <= STDERR_TAIL_BYTES) return decode(stderr).trimEnd();
  let start = stderr.length - STDERR_TAIL_BYTES;
  while (start < stderr.length && ((stderr[start] as number) & 0xc0) === 0x80) start += 1;
  return `…${decode(stderr.subarray(start)).trimEnd()}`;
}

interface JsonAnswer {
  content: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads stdout as one JSON object answer, or undefined when it is not one. */
function readJsonAnswer(text: string): JsonAnswer | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const known = 'content' in value || 'error' in value || 'is_error' in value || 'metadata' in value;
  if (!known) return undefined;
  const { content, error, is_error: isErrorFlag, metadata } = value;
  let answerText: string;
  if (typeof content === 'string') answerText = content;
  else if (content === undefined) answerText = typeof error === 'string' ? error : '';
  else answerText = JSON.stringify(content);
  const isError = error === true || typeof error === 'string' || isErrorFlag === true;
  const answer: JsonAnswer = { content: answerText, isError };
  if (isPlainObject(metadata)) answer.metadata = metadata;
  return answer;
}

function withStderr(message: string, tail: string): string {
  return tail === '' ? message : `${message}\n${tail}`;
}

/** Maps a RunOutcome to a ToolResult (see the module comment for the stdout protocol). */
export function mapRunOutcome(outcome: RunOutcome): ToolResult {
  const tail = outcome.stderr.length > 0 ? stderrTail(outcome.stderr) : '';
  const metadata: Record<string, unknown> = {};
  let content: string;
  let isError: boolean;
  if (outcome.cancelled) {
    content = 'the call was cancelled before the tool finished';
    isError = true;
  } else if (outcome.timedOut) {
    content = `timed out after ${Math.round(outcome.timeoutMs ?? outcome.durationMs)} ms`;
    isError = true;
  } else if (outcome.trap !== undefined) {
    content = withStderr(`the tool crashed (wasm trap): ${outcome.trap}`, tail);
    isError = true;
  } else if (outcome.exitCode !== 0) {
    const stdout = decode(outcome.stdout).trim();
    const answer = readJsonAnswer(stdout);
    const detail = answer !== undefined && answer.content !== '' ? answer.content : stdout;
    content = withStderr(`the tool exited with code ${outcome.exitCode}${detail === '' ? '' : `: ${detail}`}`, tail);
    if (answer?.metadata !== undefined) Object.assign(metadata, answer.metadata);
    isError = true;
  } else {
    const stdout = decode(outcome.stdout);
    const answer = outcome.truncated ? undefined : readJsonAnswer(stdout);
    if (answer === undefined) {
      content = stdout;
      isError = false;
    } else {
      content = answer.content;
      isError = answer.isError;
      if (answer.metadata !== undefined) Object.assign(metadata, answer.metadata);
    }
  }
  if (outcome.truncated) content += TRUNCATION_MARKER;
  metadata.exit_code = outcome.exitCode;
  metadata.duration_ms = Math.round(outcome.durationMs * 1000) / 1000;
  if (tail !== '') metadata.stderr = tail;
  if (outcome.truncated) metadata.truncated = true;
  if (outcome.timedOut) metadata.timed_out = true;
  if (outcome.cancelled) metadata.cancelled = true;
  if (outcome.trap !== undefined) metadata.trap = outcome.trap;
  return { content, is_error: isError, metadata };
}
