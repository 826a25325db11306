/**
 * Unwrapping adapter-wrapped commands. Most C tools (and the C template of `toolhost new`) are a wasip1 command core
 * module wrapped with the preview1 command adapter (`jco new --wasi-command`, `wasm-tools component new --adapt`).
 * Run as a component, each call instantiates four core modules through jco's glue (the program, the adapter, and
 * the adapter's two indirect-call shims), grows memory through the adapter and leaves garbage that makes V8 collect
 * every few dozen calls. The adapter only translates preview1 calls into WASI 0.2 ones, and toolhost has its own
 * preview1 host on the same sandbox (same grants, limits and confinement), so such a component runs as its inner
 * core module: one instance per call.
 *
 * Contract: `innerPreview1Command(bytes)` returns the inner core module's bytes when the component is exactly
 *  - one core module that is a wasip1 command (imports only `wasi_snapshot_preview1` functions, exports `_start`
 *    and `memory`),
 *  - one core module that is the preview1 command adapter (imports `__main_module__`, exports
 *    `wasi:cli/run@0.2.x#run`),
 *  - any number of indirect-call shim/fixup modules (no imports, or only imports from the module named ``),
 *  - and nested components that hold no core module (the `wasi:cli/run` instance wrapper);
 * otherwise undefined (the component runs as a component). The walk is linear in the file and reads framing only.
 */
import { readBinaryLayout, type BinarySection } from './binary-sections.ts';
import { readCoreModuleInterface, wasip1CommandProblem } from './core-module.ts';

const CORE_MODULE_SECTION = 1;
const COMPONENT_SECTION = 4;
const WASIP1_MODULE = 'wasi_snapshot_preview1';
const MAIN_MODULE_IMPORT = '__main_module__';
const RUN_EXPORT = /^wasi:cli\/run@0\.2\.\d+#run$/;

type Role = 'command' | 'adapter' | 'shim';

function roleOf(module: Uint8Array): Role | undefined {
  const face = readCoreModuleInterface(module);
  const importModules = new Set(face.imports.map((entry) => entry.module));
  if (importModules.has(MAIN_MODULE_IMPORT) && face.exports.some((entry) => RUN_EXPORT.test(entry.name))) return 'adapter';
  if (importModules.size === 1 && importModules.has(WASIP1_MODULE) && wasip1CommandProblem(face) === undefined) return 'command';
  if ([...importModules].every((name) => name === '')) return 'shim';
  return undefined;
}

function holdsCoreModule(bytes: Uint8Array, section: BinarySection): boolean {
  const nested = bytes.subarray(section.payloadStart, section.end);
  return readBinaryLayout(nested).sections.some((inner) => inner.id === CORE_MODULE_SECTION || (inner.id === COMPONENT_SECTION && holdsCoreModule(nested, inner)));
}

export function innerPreview1Command(bytes: Uint8Array): Uint8Array | undefined {
  try {
    const layout = readBinaryLayout(bytes);
    if (layout.kind !== 'component') return undefined;
    let command: Uint8Array | undefined;
    let adapters = 0;
    for (const section of layout.sections) {
      if (section.id === COMPONENT_SECTION) {
        if (holdsCoreModule(bytes, section)) return undefined;
        continue;
      }
      if (section.id !== CORE_MODULE_SECTION) continue;
      const module = bytes.subarray(section.payloadStart, section.end);
      const role = roleOf(module);
      if (role === undefined) return undefined;
      if (role === 'command') {
        if (command !== undefined) return undefined;
        command = module;
      } else if (role === 'adapter') {
        adapters += 1;
      }
    }
    return command !== undefined && adapters === 1 ? command : undefined;
  } catch {
    return undefined;
  }
}
