/**
 * The probe runner of a loaded wasm component: each run a fresh instance on the host's runtime under
 * `probePolicy` (no preopens, no network, only the protocol's environment, empty stdin, 2 s, 64 KiB of
 * output per stream, the tool's memory cap). The first run that times out is retried once with the
 * help run's retry budget: the first run in a worker also compiles the component there.
 */
import type { ResolvedToolPolicy } from '../../policy.ts';
import type { LoadedComponent } from '../../wasm/load.ts';
import type { WasmRuntime } from '../../wasm/runtime.ts';
import { probePolicy, PROBE_TOOL_BUDGET_MS, type ProbeRunner } from './sandbox.ts';

export function createProbeRunner(runtime: WasmRuntime, component: LoadedComponent, toolPolicy: Pick<ResolvedToolPolicy, 'memory_mb'>, programName: string): ProbeRunner {
  let retried = false;
  const decoder = new TextDecoder();
  return async (args, env = {}) => {
    const policy = probePolicy(toolPolicy, env);
    let outcome = await runtime.run(component, { args, policy, programName, stdin: new Uint8Array() });
    if (outcome.timedOut && !retried) {
      retried = true;
      outcome = await runtime.run(component, { args, policy: { ...policy, timeout_ms: PROBE_TOOL_BUDGET_MS / 2 }, programName, stdin: new Uint8Array() });
    }
    return { stdout: decoder.decode(outcome.stdout), stderr: decoder.decode(outcome.stderr), exitCode: outcome.exitCode, timedOut: outcome.timedOut };
  };
}
