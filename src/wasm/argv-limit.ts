/**
 * The preview1 adapter's argv limit, checked before a call runs. A guest that takes its arguments
 * through `wasi_snapshot_preview1.args_sizes_get` / `args_get` (C with wasi-libc, standard Go: any
 * wasip1 module wrapped with the preview1 command adapter) gets them from the adapter, which first
 * lowers `wasi:cli/environment.get-arguments` into a fixed arena inside its own state: the list of
 * (pointer, length) pairs, 8 bytes per argument, and then each string, one at a time. An argument that
 * does not fit what is left traps the adapter ("allocation size is too large"). A native wasip2
 * component (Rust `wasm32-wasip2`) imports `get-arguments` itself and has no such limit.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCoreModuleInterface, type CoreImport } from './core-module.ts';
import type { LoadedComponent } from './load.ts';

/**
 * Bytes of the adapter's argument arena (jco's preview1 command adapter). Measured with the fixture
 * test/fixtures/c/argv-size.c (built by test/fixtures/build.mjs) by bisecting the largest argument
 * that still runs, for 1 to 7,378 arguments and argv[0] of 1 to 100 bytes: a call runs exactly when
 * `8 * argc + max(1, bytes of the largest argument, argv[0] included) <= 59_032`; one byte more traps.
 * The lengths of the other arguments do not matter (each string is counted and discarded in turn).
 */
export const PREVIEW1_ARGV_ARENA_BYTES = 59_032;
/** Arena bytes each argument (argv[0] included) takes for its (pointer, length) pair. */
export const PREVIEW1_ARGV_ENTRY_BYTES = 8;

const PREVIEW1_MODULE = /^wasi_snapshot_preview1(?:_dup\d+)?$/;
const ARGV_FUNCTIONS = new Set(['args_get', 'args_sizes_get']);

/** True when one of these imports takes argv from the preview1 adapter. */
export function importsPreview1Argv(imports: readonly CoreImport[]): boolean {
  return imports.some((entry) => PREVIEW1_MODULE.test(entry.module) && ARGV_FUNCTIONS.has(entry.name));
}

/**
 * True when a core module is a wasip1 command that reads argv through the adapter: it imports
 * `args_get` from preview1 and exports `_start`, which the command adapter's `run` calls. A module that
 * imports `args_get` but exports `wasi:cli/run` itself (ComponentizeJS's engine) reads its arguments
 * through `wasi:cli/environment` and never fills the adapter's arena, so it has no such limit.
 */
export function isPreview1ArgvCommand(moduleInterface: { imports: readonly CoreImport[]; exports: readonly { name: string }[] }): boolean {
  return importsPreview1Argv(moduleInterface.imports) && moduleInterface.exports.some((entry) => entry.name === '_start');
}

/**
 * True when the component's guest reads argv through the preview1 adapter, whether toolhost wrapped
 * the wasip1 module itself or the author did (`jco new --wasi-command`, `wasm-tools component new`):
 * one of its core modules is a preview1 command (`isPreview1ArgvCommand`).
 */
export async function readsArgvThroughAdapter(component: LoadedComponent): Promise<boolean> {
  // On the preview1 host argv is copied into the guest's own memory: no arena, no limit.
  if (component.execution === 'preview1') return false;
  for (const name of component.coreModules) {
    let moduleInterface: ReturnType<typeof readCoreModuleInterface>;
    try {
      moduleInterface = readCoreModuleInterface(await readFile(join(component.cacheEntry, name)));
    } catch {
      continue; // a module that cannot be read here is not the guest's (the load compiled them all)
    }
    if (isPreview1ArgvCommand(moduleInterface)) return true;
  }
  return false;
}

export interface ArgvLimitViolation {
  /** Bytes (UTF-8) of the largest argument, argv[0] included. */
  largestBytes: number;
  /** Arguments including argv[0]. */
  argc: number;
  /** The largest argument this many arguments allow, in bytes. */
  allowedBytes: number;
}

/** Why `argv` (argv[0] first) cannot pass the preview1 adapter, or undefined when it fits. */
export function preview1ArgvViolation(argv: readonly string[]): ArgvLimitViolation | undefined {
  let largestBytes = 0;
  for (const argument of argv) largestBytes = Math.max(largestBytes, Buffer.byteLength(argument));
  const argc = argv.length;
  const allowedBytes = PREVIEW1_ARGV_ARENA_BYTES - PREVIEW1_ARGV_ENTRY_BYTES * argc;
  if (Math.max(1, largestBytes) <= allowedBytes) return undefined;
  return { largestBytes, argc, allowedBytes: Math.max(0, allowedBytes) };
}

/** What to do instead, for a model: the same advice in the refusal and in the after-the-fact message. */
export const LARGE_DATA_ADVICE =
  'Pass large data on stdin instead (the tool declares "stdin": true in its .tool.json) or in a file inside a granted folder.';

/** The refusal's text: names the limit, the call's numbers, and the way around it. */
export function argvLimitMessage(violation: ArgvLimitViolation): string {
  return (
    `the arguments are too large for this tool: it takes its arguments through the WASI preview1 adapter, ` +
    `which allows one argument of at most ${violation.allowedBytes} bytes with ${violation.argc} arguments ` +
    `(${PREVIEW1_ARGV_ARENA_BYTES} bytes less ${PREVIEW1_ARGV_ENTRY_BYTES} per argument, the program name included); ` +
    `this call's largest argument is ${violation.largestBytes} bytes. ${LARGE_DATA_ADVICE}`
  );
}
