/** The per-call WASI host (see host.ts); the runtime loads this module by URL. */
export { createWasiHost, WASI_INTERFACES } from './host.ts';
export { WasiExit, WasiTimeout } from './types.ts';
export type { CapturedOutput, WasiFsMode, WasiHost, WasiHostOptions, WasiPreopen } from './types.ts';
