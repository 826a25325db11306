/**
 * Typed access to the global `WebAssembly` object: the project compiles with `lib: ES2023` and
 * Node types only, which declare no WebAssembly namespace. Only what the runtime uses.
 */
import { enableWasmEngineFeatures } from './engine-features.ts';

/** A compiled core module (a `WebAssembly.Module`); opaque here, postable to workers. */
export interface WasmModule {
  readonly __wasmModule: unique symbol;
}

interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Module: new (bytes: Uint8Array) => WasmModule;
  RuntimeError: new (message?: string) => Error;
}

const api = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** Every runtime compile goes through here, so this is where the engine's optional features are switched on (once). */
export function compileModule(bytes: Uint8Array): Promise<WasmModule> {
  enableWasmEngineFeatures();
  return api.compile(bytes);
}

/** True for wasm traps: unreachable, out-of-bounds access, division by zero, ... */
export function isWasmTrap(error: unknown): error is Error {
  return error instanceof api.RuntimeError;
}
