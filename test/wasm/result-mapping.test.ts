import { describe, expect, it } from 'vitest';
import { redactText as redactTextWith, type CutEdges } from '../../src/secrets.ts';
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

/** Options of a tool that opted in to the envelope (`"output": "envelope"`). */
const ENVELOPE = { envelope: true } as const;

describe('mapRunOutcome', () => {
  it('takes stdout as the content as it is without the envelope opt-in, JSON objects included', () => {
    for (const text of ['{"error":"boom"}', '{"content":3,"error":"x"}', '{"content":"a","is_error":true,"metadata":{"k":1}}']) {
      expect(mapRunOutcome(outcome({ stdout: bytes(text) }))).toEqual({ content: text, is_error: false, metadata: { exit_code: 0, duration_ms: 1.5 } });
      expect(mapRunOutcome(outcome({ stdout: bytes(text) }), { envelope: false }).content).toBe(text);
    }
    const failed = mapRunOutcome(outcome({ stdout: bytes('{"error":"boom","metadata":{"k":1}}'), exitCode: 5 }));
    expect(failed).toMatchObject({ content: 'the tool exited with code 5: {"error":"boom","metadata":{"k":1}}', is_error: true });
    expect(failed.metadata).not.toHaveProperty('k');
    const cut = mapRunOutcome(outcome({ stdout: bytes('{"items":[1,2,'), truncated: true }));
    expect(cut.content).toBe(`{"items":[1,2,${TRUNCATION_MARKER}`);
  });

  it('reads a non-zero exit\'s envelope error as its detail when the tool opted in', () => {
    const failed = mapRunOutcome(outcome({ stdout: bytes('{"error":"boom","metadata":{"k":1}}'), exitCode: 5 }), ENVELOPE);
    expect(failed).toMatchObject({ content: 'the tool exited with code 5: boom', is_error: true, metadata: { k: 1, exit_code: 5 } });
  });

  it('reads a JSON object answer: string content, non-string content, metadata', () => {
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"hi","metadata":{"rows":3}}\n') }), ENVELOPE)).toEqual({
      content: 'hi',
      is_error: false,
      metadata: { rows: 3, exit_code: 0, duration_ms: 1.5 },
    });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":{"a":[1,2]}}') }), ENVELOPE).content).toBe('{"a":[1,2]}');
  });

  it('marks errors from error: true, a string error, or is_error: true', () => {
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"bad input","error":true}') }), ENVELOPE)).toMatchObject({ content: 'bad input', is_error: true });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"error":"no such user"}') }), ENVELOPE)).toMatchObject({ content: 'no such user', is_error: true });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"x","is_error":true}') }), ENVELOPE)).toMatchObject({ content: 'x', is_error: true });
    expect(mapRunOutcome(outcome({ stdout: bytes('{"content":"x","error":false}') }), ENVELOPE)).toMatchObject({ is_error: false });
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

  it('makes an exit code listed in successExitCodes a result, envelope included, and keeps others errors', () => {
    const noMatch = mapRunOutcome(outcome({ stdout: bytes('nothing found\n'), stderr: bytes('searched 3 files'), exitCode: 1 }), { successExitCodes: [0, 1] });
    expect(noMatch).toEqual({ content: 'nothing found\n', is_error: false, metadata: { exit_code: 1, duration_ms: 1.5, stderr: 'searched 3 files' } });
    const envelope = mapRunOutcome(outcome({ stdout: bytes('{"content":"none","metadata":{"matches":0}}'), exitCode: 1 }), { ...ENVELOPE, successExitCodes: [0, 1] });
    expect(envelope).toEqual({ content: 'none', is_error: false, metadata: { matches: 0, exit_code: 1, duration_ms: 1.5 } });
    expect(mapRunOutcome(outcome({ exitCode: 2 }), { successExitCodes: [0, 1] })).toMatchObject({ content: 'the tool exited with code 2', is_error: true, metadata: { exit_code: 2 } });
    // A trap has no exit code: never a result, whatever the list says.
    expect(mapRunOutcome(outcome({ exitCode: null, trap: 'unreachable' }), { successExitCodes: [0, 1] }).is_error).toBe(true);
    expect(mapRunOutcome(outcome({ exitCode: 1 })).is_error).toBe(true);
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
    const plainCut = mapRunOutcome(outcome({ stdout: bytes('plain text cut'), truncated: true }));
    expect(plainCut).toMatchObject({ content: `plain text cut${TRUNCATION_MARKER}`, is_error: false, metadata: { truncated: true } });
    expect(mapRunOutcome(outcome({})).metadata).not.toHaveProperty('stderr');
  });

  it('gives the content that arrived of a JSON answer cut at the limit, never raw broken JSON', () => {
    const truncated = mapRunOutcome(outcome({ stdout: bytes('{"metadata":{"rows":3},"content":"line one\\nline tw'), truncated: true }), ENVELOPE);
    expect(truncated).toMatchObject({ content: `line one\nline tw${TRUNCATION_MARKER}`, is_error: false, metadata: { truncated: true } });
    expect(truncated.content).not.toContain('{"');
    const errorCut = mapRunOutcome(outcome({ stdout: bytes('{"error":"it broke becau'), truncated: true }), ENVELOPE);
    expect(errorCut).toMatchObject({ content: `it broke becau${TRUNCATION_MARKER}`, is_error: true });
    const beforeContent = mapRunOutcome(outcome({ stdout: bytes('{"metadata":{"rows":[1,2,3'), truncated: true }), ENVELOPE);
    expect(beforeContent.content).toBe(TRUNCATION_MARKER.trimStart());
  });

  it('drops metadata nested beyond the shape limits instead of passing it on', () => {
    const deep = `${'{"a":'.repeat(500)}1${'}'.repeat(500)}`;
    const result = mapRunOutcome(outcome({ stdout: bytes(`{"content":"ok","metadata":${deep}}`) }), ENVELOPE);
    expect(result.content).toBe('ok');
    expect(result.metadata?.['metadata_dropped']).toMatch(/nested too deep \(limit 64/);
  });

  it('redacts a secret split by the output limit before cutting, in stdout and in the stderr tail', () => {
    const used = new Map([['API_KEY', 'sk-live-0123456789abcdef']]);
    const redactText = (text: string, edges?: CutEdges) => redactTextWith(text, used, edges);
    const cutStdout = mapRunOutcome(outcome({ stdout: bytes('token: sk-live-01234'), truncated: true }), { redactText });
    expect(cutStdout.content).toBe(`token: [REDACTED:API_KEY]${TRUNCATION_MARKER}`);
    const stderr = `${'x'.repeat(5000)}sk-live-0123456789abcdef and more`;
    const tail = mapRunOutcome(outcome({ stderr: bytes(stderr), exitCode: 1 }), { redactText }).metadata?.['stderr'] as string;
    expect(tail).toContain('[REDACTED:API_KEY] and more');
    expect(tail).not.toMatch(/0123|cdef/);
    // Without the redaction hook (the old order: cut, then redact whole values), the prefix leaked.
    expect(mapRunOutcome(outcome({ stdout: bytes('token: sk-live-01234'), truncated: true })).content).toContain('sk-live-01234');
  });

  it('keeps the head of stderr as well as its tail when a call failed, and never calls running out of memory an adapter assertion', () => {
    const stderr = `fatal error: the real reason\n${'dump line\n'.repeat(2000)}THE END`;
    const crashed = mapRunOutcome(outcome({ exitCode: null, trap: 'unreachable', stderr: bytes(stderr) }));
    const kept = crashed.metadata?.['stderr'] as string;
    expect(kept.startsWith('fatal error: the real reason\n')).toBe(true);
    expect(kept.endsWith('THE END')).toBe(true);
    expect(kept).toContain('…');
    expect(kept.length).toBeLessThan(1024 + 4096 + 8);
    expect(crashed.content).toContain('fatal error: the real reason');
    const exited = mapRunOutcome(outcome({ exitCode: 2, stderr: bytes(stderr) })).metadata?.['stderr'] as string;
    expect(exited.startsWith('fatal error: the real reason')).toBe(true);
    // A successful call keeps the tail only, as before.
    expect((mapRunOutcome(outcome({ stderr: bytes(stderr) })).metadata?.['stderr'] as string).startsWith('…')).toBe(true);

    const outOfMemory = mapRunOutcome(
      outcome({ exitCode: null, trap: 'unreachable', memoryExhaustedBytes: 64 * 1024 * 1024, stderr: bytes('hogging\nassertion failed at adapter line 2745') }),
    );
    expect(outOfMemory).toMatchObject({ content: 'ran out of memory (limit 64 MiB)\nhogging', is_error: true, metadata: { out_of_memory: true, memory_limit_mb: 64 } });
    expect(outOfMemory.metadata).not.toHaveProperty('trap');
  });
});

describe('metadata.network', () => {
  it('counts the requests and lists the refused ones without addresses, and is absent without network use', () => {
    const result = mapRunOutcome(
      outcome({
        network: {
          events: [
            { kind: 'http', decision: 'allowed', method: 'GET', scheme: 'http', host: 'api.example.com', port: 80, address: '10.0.0.1', status: 200, durationMs: 3 },
            { kind: 'http', decision: 'denied', method: 'GET', scheme: 'http', host: 'evil.example', port: 80, reason: 'not in network.allow', durationMs: 0 },
            { kind: 'tcp', decision: 'denied', host: '169.254.169.254', port: 80, reason: 'private address', address: '169.254.169.254', durationMs: 0 },
          ],
          dropped: 2,
        },
      }),
    );
    expect(result.metadata?.['network']).toEqual({
      requests: 5,
      denied: 2,
      denials: [
        { kind: 'http', host: 'evil.example', port: 80, reason: 'not in network.allow' },
        { kind: 'tcp', host: '169.254.169.254', port: 80, reason: 'private address' },
      ],
    });
    expect(mapRunOutcome(outcome({})).metadata).not.toHaveProperty('network');
  });
});
