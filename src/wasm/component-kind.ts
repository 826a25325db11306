/**
 * Decides what a .wasm file is and whether it can run as a tool: a component (run as is), a wasip1
 * command core module (wrapped with the preview1 command adapter), or something else (refused).
 */
import { readBinaryLayout } from './binary-sections.ts';
import { readCoreModuleInterface, wasip1CommandProblem } from './core-module.ts';
import type { ComponentSourceKind } from './transpile-cache.ts';

export type ClassifiedBinary = { kind: ComponentSourceKind } | { kind: 'refused'; reason: string };

export function classifyBinary(bytes: Uint8Array): ClassifiedBinary {
  let layout;
  try {
    layout = readBinaryLayout(bytes);
  } catch (error) {
    return { kind: 'refused', reason: (error as Error).message };
  }
  if (layout.kind === 'component') return { kind: 'component' };
  try {
    const problem = wasip1CommandProblem(readCoreModuleInterface(bytes));
    return problem === undefined ? { kind: 'wasip1-core-module' } : { kind: 'refused', reason: problem };
  } catch (error) {
    return { kind: 'refused', reason: `malformed core module: ${(error as Error).message}` };
  }
}

/** The interface a tool component must export (any 0.2.x version). */
export const RUN_EXPORT_PREFIX = 'wasi:cli/run@0.2.';

export function exportsCliRun(exports: readonly (readonly [string, string])[]): boolean {
  return exports.some(([name]) => name.startsWith(RUN_EXPORT_PREFIX));
}

/** Imports no WASI host can satisfy: everything outside the `wasi:` namespace. */
export function unsupportedImports(imports: readonly string[]): string[] {
  return imports.filter((name) => !name.startsWith('wasi:'));
}
