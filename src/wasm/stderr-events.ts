/**
 * A wasm call's stderr as events, on the thread running the guest (a pool worker, or the caller's
 * thread in process): the bytes the guest writes are split into lines; a progress line
 * (progress-line.ts) becomes a `progress` message, any other line a `stderr-line` message; `end`
 * closes the call's stream. The messages go to `post` (a worker's MessagePort, or a direct call).
 *
 * A guest controls all of it, so everything is capped, and linear in what it writes:
 * - a line is kept up to MAX_EVENT_LINE_BYTES (the rest of it is dropped, the line marked cut);
 * - progress is posted through a token bucket (PROGRESS_BURST at once, PROGRESS_PER_SECOND after):
 *   a report with no token left waits as the pending one (a newer report replaces it) and is posted
 *   when a token is back at the next write, or at the end. The guest's thread has no timers: it may
 *   be spinning in guest code;
 * - at most MAX_EVENT_LINES stderr lines per call are posted; `end` counts the ones left out.
 * The guest's stderr capture (and output cap) is not changed by any of this.
 */
import type { CallEvents, CallProgress } from '../call-events.ts';
import { parseProgressLine } from './progress-line.ts';

export type CallEventMessage =
  | ({ kind: 'progress' } & CallProgress)
  | { kind: 'stderr-line'; line: string }
  /** Sent once, after the guest finished; `droppedLines`: stderr lines not posted (over the cap). */
  | { kind: 'end'; droppedLines: number };

/** Longest line handled (bytes, newline excluded); longer ones are cut. */
export const MAX_EVENT_LINE_BYTES = 2048;
/** Most stderr lines one call posts. */
export const MAX_EVENT_LINES = 100;
/** Progress reports posted at once before the rate applies. */
export const PROGRESS_BURST = 8;
/** Progress reports posted per second, at most, after the burst. */
export const PROGRESS_PER_SECOND = 20;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface StderrEventTapOptions {
  post(message: CallEventMessage): void;
  /** Whether stderr lines are wanted (else only progress is posted). */
  lines: boolean;
  /** Whether progress is wanted. */
  progress: boolean;
  /** Milliseconds clock (tests); default performance.now. */
  now?: () => number;
}

export class StderrEventTap {
  readonly #options: StderrEventTapOptions;
  readonly #now: () => number;
  readonly #line = new Uint8Array(MAX_EVENT_LINE_BYTES);
  readonly #decoder = new TextDecoder('utf-8', { fatal: false });
  #length = 0;
  #cut = false;
  #linesPosted = 0;
  #linesDropped = 0;
  #tokens = PROGRESS_BURST;
  #refilledAt: number;
  #pending: CallProgress | undefined;
  #ended = false;

  constructor(options: StderrEventTapOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#refilledAt = this.#now();
  }

  /** Bytes the guest wrote to stderr (may be a view of guest memory: copied, not kept). */
  readonly write = (bytes: Uint8Array): void => {
    if (this.#ended) return;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.#append(bytes, start, end);
      if (newline === -1) break;
      this.#endLine();
      start = newline + 1;
    }
    if (this.#pending !== undefined) this.#postProgress(this.#pending);
  };

  /** The guest is done: the unfinished last line counts as a line, the pending progress is posted, then `end`. */
  end(): void {
    if (this.#ended) return;
    if (this.#length > 0 || this.#cut) this.#endLine();
    this.#ended = true;
    if (this.#pending !== undefined) this.#options.post({ kind: 'progress', ...this.#pending });
    this.#pending = undefined;
    this.#options.post({ kind: 'end', droppedLines: this.#linesDropped });
  }

  #append(bytes: Uint8Array, start: number, end: number): void {
    const room = MAX_EVENT_LINE_BYTES - this.#length;
    const take = Math.min(room, end - start);
    if (take > 0) {
      this.#line.set(bytes.subarray(start, start + take), this.#length);
      this.#length += take;
    }
    if (end - start > take) this.#cut = true;
  }

  #endLine(): void {
    let length = this.#length;
    if (length > 0 && this.#line[length - 1] === CARRIAGE_RETURN) length -= 1;
    const text = this.#decoder.decode(this.#line.subarray(0, length));
    const cut = this.#cut;
    this.#length = 0;
    this.#cut = false;
    const progress = cut ? undefined : parseProgressLine(text);
    if (progress !== undefined) {
      if (this.#options.progress) this.#postProgress(progress);
      return;
    }
    if (!this.#options.lines) return;
    if (this.#linesPosted >= MAX_EVENT_LINES) {
      this.#linesDropped += 1;
      return;
    }
    this.#linesPosted += 1;
    this.#options.post({ kind: 'stderr-line', line: cut ? `${text}…` : text });
  }

  #postProgress(update: CallProgress): void {
    const now = this.#now();
    this.#tokens = Math.min(PROGRESS_BURST, this.#tokens + ((now - this.#refilledAt) * PROGRESS_PER_SECOND) / 1000);
    this.#refilledAt = now;
    if (this.#tokens < 1) {
      this.#pending = update;
      return;
    }
    this.#tokens -= 1;
    this.#pending = undefined;
    this.#options.post({ kind: 'progress', ...update });
  }
}

/** Hands one event message to a call's listeners (the receiving side of the channel). */
export function deliverCallEvent(message: CallEventMessage, events: CallEvents): void {
  if (message.kind === 'progress') {
    const { kind: _kind, ...update } = message;
    events.progress?.(update);
  } else if (message.kind === 'stderr-line') {
    events.stderrLine?.(message.line);
  }
}
