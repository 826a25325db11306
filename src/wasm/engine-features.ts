/**
 * WebAssembly features that components from the supported toolchains need, switched on in V8 when the
 * running Node ships them only behind a flag.
 *
 * componentize-py output initializes globals with extended constant expressions (`i32.add` inside a
 * global's initializer). V8 enables extended-const by default from Node 22 on; Node 20's V8 has it
 * behind `--experimental-wasm-extended-const` and otherwise refuses the module with "opcode i32.add is
 * not allowed in constant expressions". V8 flags are process-wide and read at each compile, so setting
 * the flag once, before the first compile, covers the main thread and every worker thread (measured on
 * Node 20.20.2: a compile in the main thread, a compile in a worker and the instantiation of a module
 * posted to a worker all succeed after one `v8.setFlagsFromString` in the main thread). Node 22 and
 * later no longer know the flag and print "unrecognized flag" to stderr when it is set, so each
 * feature is probed first and its flag set only where the probe fails.
 */
import v8 from 'node:v8';

/** A wasm feature, the V8 flag that enables it where it is not on by default, and a module that uses it. */
export interface WasmEngineFeature {
  readonly name: string;
  readonly v8Flag: string;
  /** The smallest valid module that uses the feature: it validates exactly when the engine supports it. */
  readonly probe: Uint8Array;
}

/** `native`: on by default; `enabled`: switched on by its flag; `unavailable`: this engine lacks it even with the flag. */
export type WasmEngineFeatureStatus = 'native' | 'enabled' | 'unavailable';

export interface WasmEngineFeatureReport {
  readonly feature: string;
  readonly status: WasmEngineFeatureStatus;
}

/** A module with one immutable i32 global initialized to `1 + 2`: an extended constant expression. */
const EXTENDED_CONST_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x06, 0x09, 0x01, // global section, 9 bytes, 1 global
  0x7f, 0x00, // i32, immutable
  0x41, 0x01, 0x41, 0x02, 0x6a, 0x0b, // i32.const 1, i32.const 2, i32.add, end
]);

/** The features the runtime needs beyond what every supported Node enables by default. */
export const WASM_ENGINE_FEATURES: readonly WasmEngineFeature[] = [
  { name: 'extended-const', v8Flag: '--experimental-wasm-extended-const', probe: EXTENDED_CONST_PROBE },
];

interface WebAssemblyValidate {
  validate(bytes: Uint8Array): boolean;
}

const validate = (bytes: Uint8Array): boolean =>
  (globalThis as unknown as { WebAssembly: WebAssemblyValidate }).WebAssembly.validate(bytes);

/** Whether the engine accepts `feature` right now, without changing any flag. */
export function isWasmFeatureSupported(feature: WasmEngineFeature): boolean {
  return validate(feature.probe);
}

/** Switches on one feature's flag if the engine does not support it yet. */
export function enableWasmFeature(
  feature: WasmEngineFeature,
  setFlags: (flags: string) => void = (flags) => v8.setFlagsFromString(flags),
): WasmEngineFeatureStatus {
  if (isWasmFeatureSupported(feature)) return 'native';
  setFlags(feature.v8Flag);
  return isWasmFeatureSupported(feature) ? 'enabled' : 'unavailable';
}

let applied: readonly WasmEngineFeatureReport[] | undefined;

/**
 * Makes the engine accept every feature in `WASM_ENGINE_FEATURES`; call before the first wasm compile.
 * Runs once per process (later calls return the first report), since the flags it sets are process-wide.
 */
export function enableWasmEngineFeatures(): readonly WasmEngineFeatureReport[] {
  applied ??= WASM_ENGINE_FEATURES.map((feature) => ({ feature: feature.name, status: enableWasmFeature(feature) }));
  return applied;
}
