/**
 * args_get, args_sizes_get, environ_get, environ_sizes_get: argv exactly the call's arguments (argv[0]
 * the tool name) and the environment exactly the policy's, never the host's. No arena and no size
 * limit beyond the guest's own memory (the preview1 adapter's 59,032-byte argv limit does not apply).
 */
import { utf8 } from './memory.ts';
import { hostFunction, type ImportFunctions, type Preview1State } from './state.ts';

/** NUL-terminated UTF-8 strings laid out back to back, with each one's offset. */
interface StringList {
  readonly bytes: Uint8Array;
  readonly offsets: readonly number[];
}

function encodeList(strings: readonly string[]): StringList {
  const encoded = strings.map((text) => utf8(text));
  const bytes = new Uint8Array(encoded.reduce((sum, item) => sum + item.byteLength + 1, 0));
  const offsets: number[] = [];
  let offset = 0;
  for (const item of encoded) {
    offsets.push(offset);
    bytes.set(item, offset);
    offset += item.byteLength + 1;
  }
  return { bytes, offsets };
}

function listFunctions(state: Preview1State, list: () => StringList) {
  const sizes = (countPointer: number, bufferSizePointer: number) => {
    const { bytes, offsets } = list();
    state.memory.setU32(countPointer, offsets.length);
    state.memory.setU32(bufferSizePointer, bytes.byteLength);
  };
  const get = (pointersPointer: number, bufferPointer: number) => {
    const { bytes, offsets } = list();
    // Checked whole before anything is written.
    state.memory.bytes(pointersPointer, offsets.length * 4);
    state.memory.bytes(bufferPointer, bytes.byteLength).set(bytes);
    offsets.forEach((offset, index) => state.memory.setU32(pointersPointer + index * 4, (bufferPointer >>> 0) + offset));
  };
  return { sizes: hostFunction(sizes), get: hostFunction(get) };
}

export function argsEnvironImports(state: Preview1State): ImportFunctions {
  let args: StringList | undefined;
  let environ: StringList | undefined;
  const argv = listFunctions(state, () => (args ??= encodeList(state.args)));
  const env = listFunctions(state, () => (environ ??= encodeList(Object.entries(state.env).map(([key, value]) => `${key}=${value}`))));
  return { args_get: argv.get, args_sizes_get: argv.sizes, environ_get: env.get, environ_sizes_get: env.sizes };
}
