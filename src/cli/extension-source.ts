/**
 * Where the CLI gets the extension loader that wires `.wasm` tools into the host. The wasm
 * runtime is imported only when a run has an extensions folder, so `list`/`call` on built-ins
 * alone never pay for loading jco and the worker pool.
 */
import type { WasmExtensionsOptions } from '../extensions/wasm-extensions.ts';
import type { ExtensionSource, ExtensionSourceFactory } from '../host.ts';

export function createExtensionSource(options: WasmExtensionsOptions = {}): ExtensionSourceFactory {
  return (context) => {
    let source: ExtensionSource | undefined;
    return {
      async start() {
        const { wasmExtensions } = await import('../extensions/wasm-extensions.ts');
        source = wasmExtensions(options)(context);
        await source.start();
      },
      failures: () => source?.failures() ?? [],
      async close() {
        await source?.close();
      },
    };
  };
}
