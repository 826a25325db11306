import { describe, expect, it } from 'vitest';
import { mapRunOutcome, TRUNCATION_MARKER } from '../../src/wasm/result-mapping.ts';
import type { RunOutcome } from '../../src/wasm/run-types.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const outcome = (fields: Partial<RunOutcome> & { stdout?: Uint8Array }): RunOutcome => ({
  stdout: new Uint8Array(),
  stderr: new Uint8Array(),
  exitCode: 0,
  truncated: false,
  timedOut: false,
  durationMs: 1.5,
  ...fields,
});

describe('mapRunOutcome', () => {
  it('reads a JSON object answer: string content, non-string content, metadata', () => {
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"hi","metadata":{"rows":3}}\n') }))).toEqual({
      content: 'hi',
      is_error: false,
      metadata: { rows: 3, exit_code: 0, duration_ms: 1.5 },
    });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":{"a":[1,2]}}') })).content).toBe('{"a":[1,2]}');
  });

  it('marks errors from error: true, a string error, or is_error: true', () => {
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"bad input","error":true}') }))).toMatchObject({ content: 'bad input', is_error: true });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"error":"no such user"}') }))).toMatchObject({ content: 'no such user', is_error: true });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"x","is_error":true}') }))).toMatchObject({ content: 'x', is_error: true });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"x","error":false}') }))).toMatchObject({ is_error: false });
  });

  it('passes any other stdout through as text, replacing invalid UTF-8', () => {
    expect(mapRunOutcome(outcome({ stdout: bytes('plain text\n') }))).toMatchObject({ content: 'plain text\n', is_error: false });
    expect(mapRunOutcome(outcome({ stdout: bytes('[1,2,3]') })).content).toBe('[1,2,3]');
    expect(mapRunOutcome(outcome({ stdout: bytes('{"unrelated":1}') })).content).toBe('{"unrelated":1}');
    expect(mapRunOutcome(outcome({ stdout: Uint8Array.of(0x6f, 0x6b, 0xff) })).content).toBe('ok\ufffd');
  });

  it('makes a non-zero exit an error with the stderr tail', () => {
    const result = mapRunOutcome(outcome({ exitCode: 2, stderr: bytes('usage: tool <x>\n') }));
    expect(result.is_error).toBe(true);
    expect(result.content).toBe('the tool exited with code 2\nusage: tool <x>');
    expect(result.metadata).toMatchObject({ exit_code: 2, stderr: 'usage: tool <x>' });
  });

  it('reports traps and timeouts', () => {
    const trapped = mapRunOutcome(outcome({ exitCode: null, trap: 'unreachable', stderr: bytes('panicked') }));
    expect(trapped).toMatchObject({ is_error: true, metadata: { exit_code: null, trap: 'unreachable', stderr: 'panicked' } });
    expect(trapped.content).toContain('unreachable');
    expect(trapped.content).toContain('panicked');
    const timedOut = mapRunOutcome(outcome({ exitCode: null, timedOut: true, timeoutMs: 250, durationMs: 260 }));
    expect(timedOut).toMatchObject({ is_error: true, content: 'timed out after 250 ms' });
  });

  it('keeps only a capped stderr tail and marks truncated output visibly', () => {
    const noisy = mapRunOutcome(outcome({ stderr: bytes(`${'a'.repeat(10_000)}THE END`) }));
    const tail = noisy.metadata?.stderr as string;
    expect(tail.length).toBeLessThanOrEqual(4097);
    expect(tail.endsWith('THE END')).toBe(true);
    const truncated = mapRunOutcome(outcome({ stdout: bytes('{"content":"cut'), truncated: true }));
    expect(truncated.content).toBe(`{"content":"cut${TRUNCATION_MARKER}`);
    expect(truncated.metadata).toMatchObject({ truncated: true });
    expect(mapRunOutcome(outcome({})).metadata).not.toHaveProperty('stderr');
  });
});
