/**
 * Tool calls written as text by models without native tool calling, and the text answer they read.
 *
 * Recognised blocks, anywhere in the text, in order (prose around them is ignored):
 * - Hermes / Qwen: `<tool_call>{"name": "...", "arguments": {...}}</tool_call>`; a last block whose
 *   closing tag is missing (generation stopped on it) is read to the end of the text;
 * - fenced blocks: ```` ```tool_call ```` / ```` ```tool_calls ```` always hold calls; a ```` ```json ````
 *   fence holds calls when its value has a string `name` and an `arguments` (or `parameters`) field;
 *   other fences are code the model is showing, and are skipped whole (a tag inside one is no call).
 * A block may hold one call object or an array of them. `arguments` may be an object or a JSON string.
 *
 * A block that is clearly meant as a call but cannot be read (bad JSON, no name, arguments that are
 * no object) becomes a `malformed` entry with the reason, which the dispatcher answers as an
 * is_error result: the model learns what to fix instead of its call silently vanishing.
 *
 * Why a hand-written scanner: no maintained library reads these tag and fence conventions, and the
 * usual regex (`<tool_call>(.*?)</tool_call>`) cuts a call short when an argument *contains* the
 * closing tag or a fence (a file being written, say). This scanner walks the JSON value string-aware
 * to find where it ends, then expects the closing tag after it. Values are parsed with JSON.parse.
 *
 * Answers are rendered Hermes-style, one block per call in call order:
 * `<tool_response>\n{"name": ..., "content": ..., "is_error": ...}\n</tool_response>`; the body is
 * JSON, so a result that contains `</tool_response>` cannot break the framing.
 */
import type { ToolResult } from '../../result.ts';

export type TextToolCall = { kind: 'call'; name: string; arguments: unknown } | { kind: 'malformed'; name: string | null; reason: string };

const OPEN_TAG = '<tool_call>';
const CLOSE_TAG = '</tool_call>';
const FENCE = '```';
/** Fence languages whose content is always a tool call. */
const CALL_FENCES: ReadonlySet<string> = new Set(['tool_call', 'tool_calls', 'toolcall', 'function_call']);
/** How much of a malformed block is quoted back. */
const MAX_QUOTED = 200;

/**
 * The end (exclusive) of the JSON object or array starting at `start`, honouring strings and
 * escapes; -1 when it does not close before the end of the text. One walk; the scanner itself uses
 * `JsonEnds`, which answers the same question for many starts in linear time overall.
 */
export function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** States of the string-aware walk of `jsonValueEnd`: outside strings, inside one, just after a backslash inside one. */
const OUT = 0;
const IN = 1;
const ESCAPED = 2;

/**
 * `jsonValueEnd` for any number of starts at or after `from`, in O(text length) time and memory
 * in all. The walk is a three-state automaton (OUT, IN, ESCAPED) whose depth moves only in OUT, so
 * a table built backwards once holds, for every position and state, the first position where a
 * walk begun there at depth 0 meets a closing bracket that takes it below 0 (-1: none). An opening
 * bracket's match is then one look-up (the walk continues in OUT after it, and after its match):
 * a text of many unclosed blocks no longer walks to the end once per block.
 */
export class JsonEnds {
  readonly #text: string;
  readonly #from: number;
  /** `#exit[(index - from) * 3 + state]`: the position of that closing bracket, or -1. */
  readonly #exit: Int32Array;

  constructor(text: string, from = 0) {
    this.#text = text;
    this.#from = from;
    const size = Math.max(0, text.length - from);
    const exit = new Int32Array((size + 1) * 3).fill(-1);
    for (let offset = size - 1; offset >= 0; offset -= 1) {
      const index = from + offset;
      const char = text.charCodeAt(index);
      const here = offset * 3;
      const next = here + 3;
      // ESCAPED: any character is skipped, the walk is back IN the string.
      exit[here + ESCAPED] = exit[next + IN]!;
      // IN: a backslash escapes the next character, a quote ends the string.
      exit[here + IN] = char === 0x5c ? exit[next + ESCAPED]! : char === 0x22 ? exit[next + OUT]! : exit[next + IN]!;
      // OUT: a quote opens a string, a closing bracket exits, an opening one exits after its match.
      if (char === 0x22) exit[here + OUT] = exit[next + IN]!;
      else if (char === 0x7d || char === 0x5d) exit[here + OUT] = index;
      else if (char === 0x7b || char === 0x5b) {
        const match = exit[next + OUT]!;
        exit[here + OUT] = match === -1 ? -1 : exit[(match + 1 - from) * 3 + OUT]!;
      } else exit[here + OUT] = exit[next + OUT]!;
    }
    this.#exit = exit;
  }

  /** Same answer as `jsonValueEnd(text, start)` for `start` at or after `from`. */
  end(start: number): number {
    if (start < this.#from) throw new RangeError(`JsonEnds covers positions from ${this.#from}, not ${start}`);
    const char = this.#text[start];
    if (char !== '{' && char !== '[') return jsonValueEnd(this.#text, start);
    const match = this.#exit[(start + 1 - this.#from) * 3 + OUT]!;
    return match === -1 ? -1 : match + 1;
  }
}

function quoted(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > MAX_QUOTED ? `${trimmed.slice(0, MAX_QUOTED)}…` : trimmed);
}

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length && /\s/.test(text[at] ?? '')) at += 1;
  return at;
}

/** The calls of one parsed block value (an object, or an array of objects). */
function callsOf(value: unknown, where: string): TextToolCall[] {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return [{ kind: 'malformed', name: null, reason: `${where} holds an empty array; write one {"name": ..., "arguments": {...}} object per call.` }];
  return items.map((item: unknown, index): TextToolCall => {
    const at = Array.isArray(value) ? `${where}, item ${index + 1},` : where;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { kind: 'malformed', name: null, reason: `${at} is not a JSON object; write {"name": "<tool>", "arguments": {...}}.` };
    }
    const record = item as Record<string, unknown>;
    const name = record['name'];
    if (typeof name !== 'string' || name.trim() === '') {
      return { kind: 'malformed', name: null, reason: `${at} has no "name" string; write {"name": "<tool>", "arguments": {...}}.` };
    }
    let args: unknown = record['arguments'] ?? record['parameters'] ?? {};
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args) as unknown;
      } catch (error) {
        return { kind: 'malformed', name, reason: `${at}: "arguments" of ${name} is a string that is not valid JSON (${(error as Error).message}); write the arguments as a JSON object.` };
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { kind: 'malformed', name, reason: `${at}: "arguments" of ${name} must be a JSON object of parameters.` };
    }
    return { kind: 'call', name: name.trim(), arguments: args };
  });
}

function parseBlock(body: string, where: string, unclosed: boolean): TextToolCall[] {
  try {
    return callsOf(JSON.parse(body) as unknown, where);
  } catch (error) {
    const ending = unclosed ? ' The block is not closed either.' : '';
    return [{ kind: 'malformed', name: null, reason: `${where} is not valid JSON (${(error as Error).message}): ${quoted(body)}.${ending} Write {"name": "<tool>", "arguments": {...}} as strict JSON.` }];
  }
}

/** True when a ```json fence's value looks like a call (so a failed parse is reported, not ignored). */
function looksLikeCall(body: string): boolean {
  return /"name"\s*:/.test(body) && /"(arguments|parameters)"\s*:/.test(body);
}

interface Block {
  calls: TextToolCall[];
  /** Where scanning resumes. */
  next: number;
}

/** One scan of one text: the shared `JsonEnds` table, built on the first value it is asked about. */
interface Scan {
  readonly text: string;
  ends: JsonEnds | undefined;
}

function valueEndAt(scan: Scan, start: number): number {
  scan.ends ??= new JsonEnds(scan.text, start);
  return scan.ends.end(start);
}

function readTagBlock(scan: Scan, open: number, ordinal: number): Block {
  const { text } = scan;
  const where = `<tool_call> block ${ordinal}`;
  const start = open + OPEN_TAG.length;
  const valueStart = skipSpace(text, start);
  const char = text[valueStart];
  // Look for the closing tag after the JSON value, so a tag inside a string does not end the block.
  const valueEnd = char === '{' || char === '[' ? valueEndAt(scan, valueStart) : -1;
  const close = text.indexOf(CLOSE_TAG, valueEnd === -1 ? start : valueEnd);
  if (close === -1) return { calls: parseBlock(text.slice(start), where, true), next: text.length };
  return { calls: parseBlock(text.slice(start, close), where, false), next: close + CLOSE_TAG.length };
}

function readFence(scan: Scan, open: number, ordinal: number): Block {
  const { text } = scan;
  const lineEnd = text.indexOf('\n', open);
  const language = (lineEnd === -1 ? text.slice(open + FENCE.length) : text.slice(open + FENCE.length, lineEnd)).trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (lineEnd === -1) return { calls: [], next: text.length };
  const start = lineEnd + 1;
  const valueStart = skipSpace(text, start);
  const char = text[valueStart];
  const valueEnd = char === '{' || char === '[' ? valueEndAt(scan, valueStart) : -1;
  const close = text.indexOf(FENCE, valueEnd === -1 ? start : valueEnd);
  const body = close === -1 ? text.slice(start) : text.slice(start, close);
  const next = close === -1 ? text.length : close + FENCE.length;
  const where = `\`\`\`${language} block ${ordinal}`;
  if (CALL_FENCES.has(language)) return { calls: parseBlock(body, where, close === -1), next };
  if (language !== 'json') return { calls: [], next };
  let value: unknown;
  try {
    value = JSON.parse(body) as unknown;
  } catch {
    return { calls: looksLikeCall(body) ? parseBlock(body, where, close === -1) : [], next };
  }
  const items = Array.isArray(value) ? value : [value];
  const isCall = (item: unknown): boolean => typeof item === 'object' && item !== null && typeof (item as Record<string, unknown>)['name'] === 'string' && ('arguments' in item || 'parameters' in item);
  return { calls: items.length > 0 && items.every(isCall) ? callsOf(value, where) : [], next };
}

/**
 * Every tool call written in `text`, in order; malformed blocks are entries with their reason.
 * Linear time: each block resumes where the last one ended, the next opening tag and fence are
 * searched again only once scanning has passed them, and JSON value ends come from one table.
 */
export function parseTextToolCalls(text: string): TextToolCall[] {
  const calls: TextToolCall[] = [];
  const scan: Scan = { text, ends: undefined };
  let index = 0;
  let ordinal = 0;
  let tag = -2;
  let fence = -2;
  while (index < text.length) {
    if (tag !== -1 && tag < index) tag = text.indexOf(OPEN_TAG, index);
    if (fence !== -1 && fence < index) fence = text.indexOf(FENCE, index);
    if (tag === -1 && fence === -1) break;
    ordinal += 1;
    const block = fence === -1 || (tag !== -1 && tag < fence) ? readTagBlock(scan, tag, ordinal) : readFence(scan, fence, ordinal);
    for (const call of block.calls) calls.push(call);
    index = block.next;
  }
  return calls;
}

/** The answer text: one `<tool_response>` block per call, in call order. */
export function renderToolResponses(entries: readonly { name: string | null; result: ToolResult }[]): string {
  return entries
    .map(({ name, result }) => `<tool_response>\n${JSON.stringify({ name, content: result.content, is_error: result.is_error })}\n</tool_response>`)
    .join('\n');
}
