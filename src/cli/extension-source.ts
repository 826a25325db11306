/** Where the CLI gets the extension loader that wires `.wasm` tools into the host. */
import type { ExtensionSourceFactory } from '../host.ts';

export function createExtensionSource(): ExtensionSourceFactory | undefined {
  return undefined;
}
