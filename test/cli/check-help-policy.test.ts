/**
 * `toolhost check` runs a tool's help under the host's help-run policy (createHelpRunner): the same
 * budget and the same one retry of a run that timed out. Before, check had no retry, so a tool whose
 * first `--help` passed the budget (a large component compiling on a busy machine) was reported as
 * "help timed out" although a host loaded it with its help.
 *
 * The slow first run is made deterministic: the real runtime, with its first `--help` run answered as
 * timed out (what a cold compile past the budget looks like to the caller); every later run is real.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkComponent } from '../../src/cli/commands/check.ts';
import { loadWasmTool } from '../../src/extensions/wasm-tool.ts';
import type { RunOutcome } from '../../src/wasm/run-types.ts';
import { createWasmRuntime, type WasmRuntime } from '../../src/wasm/runtime.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'build', 'ext-greet.wasm');

/** `runtime`, with its first `timedOutRuns` runs answered as timed out after their budget. */
function slowToStart(runtime: WasmRuntime, timedOutRuns: number): WasmRuntime & { runs: number } {
  const wrapped = {
    ...runtime,
    runs: 0,
    async run(component, options): Promise<RunOutcome> {
      wrapped.runs += 1;
      if (wrapped.runs <= timedOutRuns) {
        return { stdout: new Uint8Array(), stderr: new Uint8Array(), exitCode: null, truncated: false, timedOut: true, timeoutMs: options.policy.timeout_ms, durationMs: options.policy.timeout_ms };
      }
      return runtime.run(component, options);
    },
  } satisfies WasmRuntime & { runs: number };
  return wrapped;
}

describe('check and the host share one help-run policy', () => {
  let work: string;
  let runtime: WasmRuntime;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'toolhost-check-policy-'));
    runtime = createWasmRuntime({ cacheDirectory: join(work, 'cache'), threads: 1 });
  });
  afterAll(async () => {
    await runtime.close();
    await rm(work, { recursive: true, force: true });
  });

  it('a help whose first run times out is taken by the host, and check does not call it timed out', async () => {
    const loaded = await loadWasmTool(FIXTURE, { runtime: slowToStart(runtime, 1), workspaceRoot: work });
    expect(loaded.tool.details?.['helpFlag']).toBe('--help');
    expect(loaded.tool.details?.['helpProblem']).toBeUndefined();

    const report = await checkComponent(FIXTURE, slowToStart(runtime, 1), work);
    const codes = report.findings.map((finding) => finding.code);
    expect(codes).not.toContain('help-run-failed');
    expect(codes).toContain('startup');
    expect(report.facts.help_flag).toBe('--help');
    expect(report.ok).toBe(true);
  }, 120_000);

  it('the control: a help that times out on the retry too is reported, by check as by the host', async () => {
    const loaded = await loadWasmTool(FIXTURE, { runtime: slowToStart(runtime, Number.POSITIVE_INFINITY), workspaceRoot: work });
    expect(loaded.tool.details?.['helpFlag']).toBe('none');

    const report = await checkComponent(FIXTURE, slowToStart(runtime, 2), work);
    const failed = report.findings.find((finding) => finding.code === 'help-run-failed');
    expect(failed?.message).toMatch(/timed out after \d+ ms/);
    expect(report.ok).toBe(false);
  }, 120_000);
});
