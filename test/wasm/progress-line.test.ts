/**
 * The progress line format (src/wasm/progress-line.ts) and the stderr tap (src/wasm/stderr-events.ts):
 * exactly the documented lines are progress, anything else is plain stderr; the tap splits writes
 * into lines however they are chunked, caps lines and their count, and throttles progress with a
 * token bucket on an injected clock (no sleeping). As an attacker: long lines, many lines, a line
 * made to make a regex backtrack.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PROGRESS_LINE_BYTES, MAX_PROGRESS_MESSAGE_CHARS, parseProgressLine, withoutProgressLines } from '../../src/wasm/progress-line.ts';
import { MAX_EVENT_LINE_BYTES, MAX_EVENT_LINES, PROGRESS_BURST, PROGRESS_PER_SECOND, StderrEventTap, type CallEventMessage } from '../../src/wasm/stderr-events.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);

describe('parseProgressLine', () => {
  it('reads progress, an optional total and an optional message', () => {
    expect(parseProgressLine('toolhost-progress: 3')).toEqual({ progress: 3 });
    expect(parseProgressLine('toolhost-progress: 3/10')).toEqual({ progress: 3, total: 10 });
    expect(parseProgressLine('toolhost-progress: 3/10 files copied')).toEqual({ progress: 3, total: 10, message: 'files copied' });
    expect(parseProgressLine('toolhost-progress:   0.25 a quarter  ')).toEqual({ progress: 0.25, message: 'a quarter' });
    expect(parseProgressLine('toolhost-progress: 7/7\r')).toEqual({ progress: 7, total: 7 });
    expect(parseProgressLine('toolhost-progress: 0/100 ')).toEqual({ progress: 0, total: 100 });
  });

  it('anything else is not progress', () => {
    for (const line of [
      'Toolhost-progress: 1',
      ' toolhost-progress: 1',
      'toolhost-progress:1',
      'toolhost-progress: ',
      'toolhost-progress: -1',
      'toolhost-progress: +1',
      'toolhost-progress: 1e3',
      'toolhost-progress: 1/0',
      'toolhost-progress: 1/',
      'toolhost-progress: .5',
      'toolhost-progress: 1.2.3',
      'toolhost-progress: 1/2/3',
      'toolhost-progress: 1234567890123456',
      'toolhost-progress: 1x',
      'progress: 1/2',
      'toolhost-progress: NaN',
    ]) {
      expect(parseProgressLine(line), line).toBeUndefined();
    }
  });

  it('caps the message, and a line over the length cap is plain stderr', () => {
    const long = `toolhost-progress: 1/2 ${'m'.repeat(400)}`;
    expect(parseProgressLine(long)?.message).toHaveLength(MAX_PROGRESS_MESSAGE_CHARS);
    expect(parseProgressLine(`toolhost-progress: 1/2 ${'m'.repeat(MAX_PROGRESS_LINE_BYTES)}`)).toBeUndefined();
  });

  it('answers in linear time on lines built to backtrack (the length cap bounds every line)', () => {
    const hostile = [`toolhost-progress: ${'1'.repeat(MAX_PROGRESS_LINE_BYTES - 20)}`, `toolhost-progress:${' '.repeat(MAX_PROGRESS_LINE_BYTES - 20)}x`, `toolhost-progress: 1/${' '.repeat(480)}x`];
    for (const line of hostile) expect(parseProgressLine(line)).toBeUndefined();
  });
});

describe('withoutProgressLines', () => {
  it('removes exactly the progress lines and keeps every other byte', () => {
    const stderr = bytes('start\ntoolhost-progress: 1/2 half\nwarning: x\n toolhost-progress: 1/2 kept\ntoolhost-progress: 2/2');
    expect(text(withoutProgressLines(stderr))).toBe('start\nwarning: x\n toolhost-progress: 1/2 kept\n');
  });

  it('returns the same bytes when there is no progress line', () => {
    const stderr = bytes('plain\nlines\n');
    expect(withoutProgressLines(stderr)).toBe(stderr);
    const lookalike = bytes('say toolhost-progress: 1\n');
    expect(withoutProgressLines(lookalike)).toBe(lookalike);
  });
});

/** A tap posting into an array, on a clock the test moves. */
function tapWith(options: { lines?: boolean; progress?: boolean } = {}) {
  const messages: CallEventMessage[] = [];
  let now = 0;
  const tap = new StderrEventTap({ post: (message) => messages.push(message), lines: options.lines ?? true, progress: options.progress ?? true, now: () => now });
  return {
    tap,
    messages,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('StderrEventTap', () => {
  it('splits writes into lines however they are chunked, progress apart from plain lines', () => {
    const { tap, messages } = tapWith();
    for (const chunk of ['inf', 'o: one\ntoolhost-pro', 'gress: 1/2 half\r\nlast without newline']) tap.write(bytes(chunk));
    tap.end();
    expect(messages).toEqual([
      { kind: 'stderr-line', line: 'info: one' },
      { kind: 'progress', progress: 1, total: 2, message: 'half' },
      { kind: 'stderr-line', line: 'last without newline' },
      { kind: 'end', droppedLines: 0 },
    ]);
  });

  it('posts only what is wanted', () => {
    const { tap, messages } = tapWith({ lines: false });
    tap.write(bytes('plain\ntoolhost-progress: 1\n'));
    tap.end();
    expect(messages).toEqual([{ kind: 'progress', progress: 1 }, { kind: 'end', droppedLines: 0 }]);
  });

  it('cuts a long line and never takes it for progress', () => {
    const { tap, messages } = tapWith();
    tap.write(bytes(`toolhost-progress: 1 ${'x'.repeat(MAX_EVENT_LINE_BYTES * 3)}\n`));
    tap.end();
    const [first] = messages;
    expect(first?.kind).toBe('stderr-line');
    expect(first?.kind === 'stderr-line' && first.line.length).toBe(MAX_EVENT_LINE_BYTES + 1);
  });

  it(`posts at most ${MAX_EVENT_LINES} lines and counts the rest`, () => {
    const { tap, messages } = tapWith();
    tap.write(bytes('line\n'.repeat(MAX_EVENT_LINES + 50)));
    tap.end();
    expect(messages.filter((message) => message.kind === 'stderr-line')).toHaveLength(MAX_EVENT_LINES);
    expect(messages.at(-1)).toEqual({ kind: 'end', droppedLines: 50 });
  });

  it('throttles progress with a token bucket: a burst, then the rate; the latest pending report is posted later, and at the end', () => {
    const { tap, messages, advance } = tapWith();
    const report = (n: number) => tap.write(bytes(`toolhost-progress: ${n}\n`));
    for (let n = 1; n <= 100; n += 1) report(n);
    expect(messages.map((message) => (message.kind === 'progress' ? message.progress : undefined))).toEqual(Array.from({ length: PROGRESS_BURST }, (_, index) => index + 1));
    // One token comes back after 1000 / rate ms: the pending report (the latest, 100) goes out at the next write.
    advance(1000 / PROGRESS_PER_SECOND);
    tap.write(bytes('x\n'));
    expect(messages.at(-1)).toEqual({ kind: 'progress', progress: 100 });
    report(101);
    tap.end();
    expect(messages.slice(-2)).toEqual([
      { kind: 'progress', progress: 101 },
      { kind: 'end', droppedLines: 0 },
    ]);
  });
});
