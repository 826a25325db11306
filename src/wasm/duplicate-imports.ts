/**
 * Go's `GOOS=wasip1` binaries import some preview1 functions twice (e.g. `fd_write`, golang/go#60525).
 * jco 1.11's component tooling refuses duplicate imports. Instead of renumbering every function
 * index in the code, each repeated import is moved to a numbered sibling module
 * (`wasi_snapshot_preview1_dup1`, ...) that is satisfied by its own instance of jco's preview1
 * *reactor* adapter. Only import names change, so no index anywhere else in the module moves.
 */
import { readBinaryLayout } from './binary-sections.ts';
import { ByteReader, IMPORT_SECTION_ID, readExternKind, skipImportDescriptor } from './core-module.ts';
import { encodeUnsigned } from './leb128.ts';
import { concatBytes } from './bytes.ts';

export interface SplitImports {
  /** The module bytes, with repeated imports moved to numbered sibling modules (same array when none). */
  bytes: Uint8Array;
  /** The sibling module names introduced, in order (`<module>_dup1`, `<module>_dup2`, ...). */
  duplicateModules: string[];
}

const encoder = new TextEncoder();

function encodeName(name: string): Uint8Array {
  const text = encoder.encode(name);
  const out = new Uint8Array(encodeUnsigned(text.length).length + text.length);
  out.set(encodeUnsigned(text.length), 0);
  out.set(text, encodeUnsigned(text.length).length);
  return out;
}


/** Moves the second, third, ... import of the same `module.name` of `module` into numbered sibling modules. */
export function splitDuplicateImports(bytes: Uint8Array, module: string): SplitImports {
  const layout = readBinaryLayout(bytes);
  const section = layout.sections.find((candidate) => candidate.id === IMPORT_SECTION_ID);
  if (section === undefined) return { bytes, duplicateModules: [] };
  const reader = new ByteReader(bytes, section.payloadStart, section.end);
  const count = reader.unsigned();
  const seen = new Map<string, number>();
  const entries: Uint8Array[] = [];
  let deepest = 0;
  for (let index = 0; index < count; index += 1) {
    const moduleName = reader.name();
    const nameStart = reader.offset;
    const name = reader.name();
    const kind = readExternKind(reader);
    skipImportDescriptor(reader, kind);
    const rest = bytes.subarray(nameStart, reader.offset);
    const occurrence = moduleName === module && kind === 'func' ? (seen.get(name) ?? 0) : 0;
    if (moduleName === module && kind === 'func') seen.set(name, occurrence + 1);
    deepest = Math.max(deepest, occurrence);
    entries.push(concatBytes([encodeName(occurrence === 0 ? moduleName : `${module}_dup${occurrence}`), rest]));
  }
  if (deepest === 0) return { bytes, duplicateModules: [] };
  const payload = concatBytes([encodeUnsigned(count), ...entries]);
  const rebuilt = concatBytes([bytes.subarray(0, section.start), Uint8Array.of(IMPORT_SECTION_ID), encodeUnsigned(payload.length), payload, bytes.subarray(section.end)]);
  return { bytes: rebuilt, duplicateModules: Array.from({ length: deepest }, (_, level) => `${module}_dup${level + 1}`) };
}
