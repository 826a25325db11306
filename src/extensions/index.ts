// Extension tools (wasm components in a drop-in folder) for the host.
export { wasmExtensions } from './wasm-extensions.ts';
export type { WasmExtensionSource } from './wasm-extensions.ts';
export { ExtensionSet, componentFileFor, SIDECAR_SUFFIXES } from './extension-set.ts';
export type { ExtensionLoader, LoadedExtension } from './extension-set.ts';
export { loadWasmTool, probeWasmToolVersion, permissionForPolicy, HELP_TIMEOUT_MS } from './wasm-tool.ts';
export type { WasmToolDetails, WasmToolLoaderOptions } from './wasm-tool.ts';
export { watchExtensions } from './watcher.ts';
export { chooseToolName, clashReason, describeWasmTool, fileStem, planFolderToolNames, planToolNames, registrationOrder, sidecarPaths, wantedToolName } from './tool-names.ts';
export type { NameClash, PlannedName } from './tool-names.ts';
