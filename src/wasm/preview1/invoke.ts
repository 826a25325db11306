/**
 * One call of a wasip1 core module on the preview1 host: a fresh host, ONE `WebAssembly.Instance`
 * of the (memory-capped) module with it, `_start`, and the same InvokeResult the component path gives
 * (invoke.ts): the exact exit code, a trap's message, a sleep past the deadline as timed out, and a
 * failed call whose memory is exhausted reported as such. Nothing the guest can see survives the
 * call: a module rewritten to import its memory gets a pristine one (memory-pool.ts).
 */
import { exhaustedMemoryBytes } from '../memory-exhaustion.ts';
import { invokeTiming, isWasiExit, isWasiTimeout, trapMessage, type InvokeResult } from '../invoke.ts';
import type { CallOptions } from '../run-types.ts';
import type { WasmModule } from '../webassembly.ts';
import { createPreview1Host } from './host.ts';
import { leasePristineMemory } from './memory-pool.ts';
import type { WasmMemory } from './memory.ts';

interface WebAssemblyInstanceApi {
  Instance: new (module: WasmModule, imports: object) => { exports: Record<string, unknown> };
  Memory: abstract new (...args: never[]) => object;
}

const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyInstanceApi }).WebAssembly;

type GrowableMemory = WasmMemory & { grow(pages: number): number };

export function invokePreview1(module: WasmModule, options: CallOptions): InvokeResult {
  const started = performance.now();
  let instantiated: number | undefined;
  const host = createPreview1Host(options);
  let exitCode: number | null = 0;
  let trap: string | undefined;
  let timedOut = false;
  let memory: GrowableMemory | undefined;
  const lease = leasePristineMemory(module);
  try {
    const instance = new webAssembly.Instance(module, lease === undefined ? host.imports : { ...host.imports, ...lease.imports });
    const exported = instance.exports['memory'];
    const start = instance.exports['_start'];
    if (!(exported instanceof webAssembly.Memory) || typeof start !== 'function') throw new Error('the module exports no memory or no _start');
    memory = exported as unknown as GrowableMemory;
    host.bindMemory(memory);
    instantiated = performance.now();
    (start as () => void)();
  } catch (error) {
    if (isWasiExit(error)) exitCode = error.exitCode;
    else if (isWasiTimeout(error)) {
      exitCode = null;
      timedOut = true;
    } else {
      exitCode = null;
      trap = trapMessage(error);
    }
  }
  const timing = invokeTiming(started, instantiated);
  let stdout;
  let stderr;
  try {
    stdout = host.stdout();
    stderr = host.stderr();
  } finally {
    host.dispose();
  }
  const result: InvokeResult = { stdout: stdout.bytes, stderr: stderr.bytes, exitCode, truncated: stdout.truncated || stderr.truncated, timedOut, timing };
  if (trap !== undefined) result.trap = trap;
  if (!timedOut && (trap !== undefined || exitCode !== 0) && memory !== undefined) {
    const exhausted = exhaustedMemoryBytes([{ memory }], options.memoryLimitBytes);
    if (exhausted !== undefined) result.memoryExhaustedBytes = exhausted;
  }
  lease?.release();
  return result;
}
