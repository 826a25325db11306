/**
 * `createPreview1Host`: the `wasi_snapshot_preview1` import object of one call of a core module, on
 * the same sandbox as the WASI 0.2 host (wasi/host.ts): the same call context (deadline, fd cap), the
 * same capped stdio capture, the same confined filesystem grants, the same clocks and random source.
 * There is no network in preview1 (sock_* refuse, sock.ts). The guest's memory is bound after
 * instantiation (`bindMemory`); nothing of the host lives in it.
 */
import { createCallContext } from '../wasi/call-context.ts';
import { createStdio } from '../wasi/cli-stdio.ts';
import type { CapturedOutput, WasiHostOptions } from '../wasi/types.ts';
import { argsEnvironImports } from './args-environ.ts';
import { clockImports } from './clocks.ts';
import { FdTable } from './fd-table.ts';
import { fdImports } from './fd.ts';
import { GuestMemory, type WasmMemory } from './memory.ts';
import { pathImports } from './path.ts';
import { pollImports } from './poll.ts';
import { procImports } from './proc.ts';
import { randomImports } from './random.ts';
import { sockImports } from './sock.ts';
import type { Preview1State } from './state.ts';

export const PREVIEW1_MODULE = 'wasi_snapshot_preview1';

export interface Preview1Host {
  /** The import object to instantiate the module with. */
  readonly imports: { [PREVIEW1_MODULE]: Record<string, unknown> };
  /** Gives the host functions the instance's exported memory; call before `_start`. */
  bindMemory(memory: WasmMemory): void;
  stdout(): CapturedOutput;
  stderr(): CapturedOutput;
  /** Closes the host fds the guest left open; once, after the call. */
  dispose(): void;
}

export function createPreview1Host(options: WasiHostOptions): Preview1Host {
  const ctx = createCallContext(options.timeoutMs);
  const stdinBytes = options.stdin ?? new Uint8Array(0);
  const stdio = createStdio(stdinBytes, options.outputLimitBytes, options.onStderr);
  const memory = new GuestMemory();
  const fds = new FdTable({
    stdin: stdio.stdin.getStdin(),
    stdinBytes: stdinBytes.byteLength,
    stdout: stdio.out,
    stderr: stdio.err,
    preopens: options.preopens,
    ctx,
  });
  const state: Preview1State = { memory, fds, ctx, args: options.args, env: options.env };
  const functions = {
    ...argsEnvironImports(state),
    ...clockImports(state),
    ...fdImports(state),
    ...pathImports(state),
    ...pollImports(state),
    ...procImports,
    ...randomImports(state),
    ...sockImports(state),
  };
  return {
    imports: { [PREVIEW1_MODULE]: functions },
    bindMemory: (exported) => memory.bind(exported),
    stdout: () => stdio.out.captured(),
    stderr: () => stdio.err.captured(),
    dispose: () => {
      if (ctx.openFiles.size === 0) return;
      for (const file of [...ctx.openFiles]) file.close();
    },
  };
}

/** Every function of wasi_snapshot_preview1 this host provides. */
export const PREVIEW1_FUNCTIONS: readonly string[] = Object.freeze(
  Object.keys(createPreview1Host({ args: [], env: {}, preopens: [], networkAllow: [], outputLimitBytes: 0 }).imports[PREVIEW1_MODULE]).sort(),
);
