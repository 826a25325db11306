/**
 * Maps a call's outcome to the one ToolResult shape. A tool answers through stdout, as it is: its
 * stdout is the content, so a CLI that prints JSON (a jq-like) is read verbatim. Only a tool that opts
 * in to toolhost's envelope (`"output": "envelope"` in its `.tool.json` or `--help-json` spec) has one
 * JSON object `{content, error | is_error, metadata}` on stdout read as such; anything else it prints
 * is still the content as text. Output cut at the limit is redacted before anything else (a cut may
 * split a secret), and an envelope cut short gives the part of its `content` that arrived, never raw
 * broken JSON. An exit code the tool lists in `success_exit_codes` (grep's 1, "no match") ends the call
 * like 0 does: a result, not an error; `metadata.exit_code` is the exact code either way. Image or
 * audio bytes on stdout (declared with `output_media_type`, or recognized by their leading bytes) are
 * one image/audio part, never decoded as text (src/results/media-output.ts).
 */
import { parse as parsePartialJson, Allow } from 'partial-json';
import { findJsonShapeViolation } from '../json-limits.ts';
import { isPlainObject } from '../json-value.ts';
import type { ResultPart, ToolResult } from '../result.ts';
import { bytesHoldSecret, MEDIA_SECRET_MESSAGE, readMediaOutput } from '../results/media-output.ts';
import type { CutEdges } from '../secrets.ts';
import { LARGE_DATA_ADVICE, PREVIEW1_ARGV_ARENA_BYTES, PREVIEW1_ARGV_ENTRY_BYTES } from './argv-limit.ts';
import type { NetworkActivity, NetworkEvent } from './net/events.ts';
import { withoutProgressLines } from './progress-line.ts';
import type { RunOutcome } from './run-types.ts';

export interface MapRunOutcomeOptions {
  /** Redacts the call's secrets from a text before it is cut (the bridge's `ToolContext.redactText`). */
  redactText?: (text: string, edges?: CutEdges) => string;
  /**
   * The tool speaks toolhost's envelope (its spec's `output` is `"envelope"`): stdout that is one JSON
   * object `{content, error | is_error, metadata}` is read as such. Default false: stdout is the content.
   */
  envelope?: boolean;
  /** Exit codes that end the call with a result, not an error (the spec's `success_exit_codes`). Default `[0]`. */
  successExitCodes?: readonly number[];
  /**
   * The media type the tool declares its stdout to be (the spec's `output_media_type`): a successful
   * call's stdout becomes one image or audio part, and must be such data (src/results/media-output.ts).
   */
  mediaType?: string;
  /**
   * Recognize image and audio output by its leading bytes when no media type is declared. Default true
   * (for a tool whose stdout is read as text; off for the envelopes).
   */
  sniffMedia?: boolean;
}

/**
 * The preview1 adapter (inside C and Go tools) lowers argv into a fixed arena and traps with this
 * message when an argument does not fit (argv-limit.ts). Tools refuse such calls before running; this
 * covers callers of the runtime that do not: say so, and how to pass large data instead.
 */
const ARGUMENTS_TOO_LARGE = /adapter line \d+: allocation size is too large/;
export const ARGUMENTS_TOO_LARGE_MESSAGE =
  `the arguments are too large for this tool: its WASI preview1 adapter allows one argument of at most ${PREVIEW1_ARGV_ARENA_BYTES} bytes ` +
  `less ${PREVIEW1_ARGV_ENTRY_BYTES} per argument. ${LARGE_DATA_ADVICE}`;

/** Bytes of stderr kept in results (its tail). */
export const STDERR_TAIL_BYTES = 4096;
/** Bytes of the start of stderr kept as well when a call failed: runtimes print the reason first. */
export const STDERR_HEAD_BYTES = 1024;
const MIB = 1024 * 1024;
/** The preview1 adapter's own assertion, a symptom of the guest running out of memory, not its reason. */
const ADAPTER_ASSERTION = /^assertion failed at adapter line \d+\n?/gm;
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

/** The tail of already-decoded (and redacted) stderr text, about `STDERR_TAIL_BYTES` long. */
function textTail(text: string): string {
  if (Buffer.byteLength(text) <= STDERR_TAIL_BYTES) return text.trimEnd();
  let start = text.length - STDERR_TAIL_BYTES;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  return `…${text.slice(start).trimEnd()}`;
}

/**
 * The head and the tail of already-decoded (and redacted) stderr text of a failed call: the first
 * `STDERR_HEAD_BYTES` and the last `STDERR_TAIL_BYTES`, with an ellipsis line between them.
 */
function textHeadAndTail(text: string): string {
  if (Buffer.byteLength(text) <= STDERR_HEAD_BYTES + STDERR_TAIL_BYTES) return text.trimEnd();
  let end = STDERR_HEAD_BYTES;
  while (Buffer.byteLength(text.slice(0, end)) > STDERR_HEAD_BYTES) end -= 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}\n${textTail(text.slice(end))}`;
}

/**
 * The `content` (or `error`) that arrived of a JSON answer cut at the output limit. Undefined when the
 * text does not start like a JSON answer object.
 */
function readCutJsonAnswer(text: string): { content: string; isError: boolean } | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = parsePartialJson(trimmed, Allow.ALL);
  } catch {
    return undefined; // not JSON after all, or nested too deep for the parser: plain text then
  }
  if (!isPlainObject(value)) return undefined;
  if (typeof value['content'] === 'string') return { content: value['content'], isError: value['is_error'] === true || typeof value['error'] === 'string' };
  if (typeof value['error'] === 'string') return { content: value['error'], isError: true };
  if ('content' in value || 'error' in value || 'is_error' in value || 'metadata' in value) return { content: '', isError: value['is_error'] === true };
  return undefined;
}

interface JsonAnswer {
  content: string;
  isError: boolean;
  metadata?: Record<string, unknown>;
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
  if (isPlainObject(metadata)) {
    const violation = findJsonShapeViolation(metadata);
    answer.metadata = violation === undefined ? metadata : { metadata_dropped: `the tool's metadata was ${violation.message}` };
  }
  return answer;
}

function withStderr(message: string, tail: string): string {
  return tail === '' ? message : `${message}\n${tail}`;
}

/** Maps a RunOutcome to a ToolResult (see the module comment for the stdout protocol). */
export function mapRunOutcome(outcome: RunOutcome, options: MapRunOutcomeOptions = {}): ToolResult {
  const redact = options.redactText ?? ((text: string) => text);
  const envelope = options.envelope === true;
  const cutEdges: CutEdges = { cutAtEnd: outcome.truncated };
  const stdoutText = (): string => redact(decode(outcome.stdout), cutEdges);
  const outOfMemory = outcome.memoryExhaustedBytes !== undefined && !outcome.cancelled && !outcome.timedOut;
  const successCodes = options.successExitCodes ?? [0];
  const exitedWithResult = outcome.exitCode !== null && successCodes.includes(outcome.exitCode);
  const failed = outcome.cancelled === true || outcome.timedOut || outcome.trap !== undefined || !exitedWithResult;
  // Progress lines (progress-line.ts) are the tool talking to the host, not part of its stderr.
  const stderr = withoutProgressLines(outcome.stderr);
  let stderrText = stderr.length > 0 ? redact(decode(stderr), cutEdges) : '';
  if (outOfMemory) stderrText = stderrText.replace(ADAPTER_ASSERTION, '');
  const tail = stderrText === '' ? '' : failed ? textHeadAndTail(stderrText) : textTail(stderrText);
  const metadata: Record<string, unknown> = {};
  let content: string;
  let isError: boolean;
  let parts: ResultPart[] | undefined;
  let media: ReturnType<typeof readMediaOutput>;
  if (outOfMemory) {
    const limitMiB = Math.round(((outcome.memoryExhaustedBytes as number) / MIB) * 100) / 100;
    content = withStderr(`ran out of memory (limit ${limitMiB} MiB)`, tail);
    metadata.out_of_memory = true;
    metadata.memory_limit_mb = limitMiB;
    isError = true;
  } else if (outcome.cancelled) {
    content = 'the call was cancelled before the tool finished';
    isError = true;
  } else if (outcome.timedOut) {
    content = `timed out after ${Math.round(outcome.timeoutMs ?? outcome.durationMs)} ms`;
    isError = true;
  } else if (outcome.trap !== undefined && (ARGUMENTS_TOO_LARGE.test(outcome.trap) || ARGUMENTS_TOO_LARGE.test(stderrText))) {
    content = ARGUMENTS_TOO_LARGE_MESSAGE;
    isError = true;
    metadata.reason = 'arguments_too_large';
  } else if (outcome.trap !== undefined) {
    content = withStderr(`the tool crashed (wasm trap): ${outcome.trap}`, tail);
    isError = true;
  } else if (!exitedWithResult) {
    const stdout = stdoutText().trim();
    const answer = envelope ? readJsonAnswer(stdout) : undefined;
    const detail = answer !== undefined && answer.content !== '' ? answer.content : stdout;
    content = withStderr(`the tool exited with code ${outcome.exitCode}${detail === '' ? '' : `: ${detail}`}`, tail);
    if (answer?.metadata !== undefined) Object.assign(metadata, answer.metadata);
    isError = true;
  } else if ((media = readMediaOutput(outcome.stdout, outcome.truncated, options.mediaType, !envelope && options.sniffMedia !== false)) !== undefined) {
    if (media.ok && bytesHoldSecret(outcome.stdout, options.redactText)) {
      content = MEDIA_SECRET_MESSAGE;
      isError = true;
      metadata.reason = 'media_output_invalid';
    } else if (media.ok) {
      content = '';
      isError = false;
      parts = [media.part];
      metadata.media_type = media.part.mime_type;
      metadata.media_bytes = outcome.stdout.length;
    } else {
      content = withStderr(media.message, tail);
      isError = true;
      metadata.reason = 'media_output_invalid';
    }
  } else {
    const stdout = stdoutText();
    const answer = !envelope ? undefined : outcome.truncated ? readCutJsonAnswer(stdout) : readJsonAnswer(stdout);
    if (answer === undefined) {
      content = stdout;
      isError = false;
    } else {
      content = answer.content;
      isError = answer.isError;
      if ('metadata' in answer && answer.metadata !== undefined) Object.assign(metadata, answer.metadata);
    }
  }
  if (outcome.truncated && parts === undefined) content += content === '' ? TRUNCATION_MARKER.trimStart() : TRUNCATION_MARKER;
  metadata.exit_code = outcome.exitCode;
  metadata.duration_ms = roundMs(outcome.durationMs);
  if (tail !== '') metadata.stderr = tail;
  if (outcome.truncated) metadata.truncated = true;
  if (outcome.timedOut) metadata.timed_out = true;
  if (outcome.cancelled) metadata.cancelled = true;
  if (outcome.trap !== undefined && !outOfMemory) metadata.trap = outcome.trap;
  if (outcome.network !== undefined) metadata.network = summarizeNetwork(outcome.network);
  if (outcome.timing !== undefined) metadata.timing = { instantiate_ms: roundMs(outcome.timing.instantiateMs), run_ms: roundMs(outcome.timing.runMs) };
  return parts === undefined ? { content, is_error: isError, metadata } : { content, is_error: isError, metadata, parts };
}

/** Milliseconds to the microsecond. */
function roundMs(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** One refused network request as results and events show it: where to, and why. */
export interface NetworkDenial {
  kind: NetworkEvent['kind'];
  host: string;
  port: number;
  reason: string;
}

/** `metadata.network`: how many requests a call made, how many were refused, and the refusals. */
export interface NetworkSummary {
  requests: number;
  denied: number;
  denials: NetworkDenial[];
}

/** Summarizes a call's network records for its result (no addresses, headers, bodies or paths). */
export function summarizeNetwork(activity: NetworkActivity): NetworkSummary {
  const denials = activity.events
    .filter((event) => event.decision === 'denied')
    .map((event) => ({ kind: event.kind, host: event.host, port: event.port, reason: event.reason ?? 'denied' }));
  return { requests: activity.events.length + activity.dropped, denied: denials.length, denials };
}
