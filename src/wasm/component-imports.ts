/**
 * Reads the import names of a component from its top-level import sections (id 10). jco's
 * transpile output lists only the imports its glue uses; a declared but unused import still has to
 * be satisfiable, so the runtime checks this list instead.
 */
import { readBinaryLayout } from './binary-sections.ts';
import { ByteReader } from './core-module.ts';

export const COMPONENT_IMPORT_SECTION_ID = 10;

function skipExternDescriptor(reader: ByteReader): void {
  const kind = reader.byte();
  switch (kind) {
    case 0x00:
      reader.byte();
      reader.unsigned();
      return;
    case 0x01:
    case 0x04:
    case 0x05:
      reader.unsigned();
      return;
    case 0x02: {
      // A value type: a primitive (one byte, 0x64..0x7f) or a type index (s33, LEB).
      const first = reader.byte();
      if (first >= 0x64 && first <= 0x7f) return;
      let byte = first;
      while (byte & 0x80) byte = reader.byte();
      return;
    }
    case 0x03: {
      const bound = reader.byte();
      if (bound === 0x00) reader.unsigned();
      return;
    }
    default:
      throw new Error(`unknown component import kind 0x${kind.toString(16)}`);
  }
}

/** Top-level import names of a component, versions included (e.g. `wasi:cli/stdout@0.2.3`). */
export function readComponentImportNames(bytes: Uint8Array): string[] {
  const layout = readBinaryLayout(bytes);
  if (layout.kind !== 'component') throw new Error('not a component');
  const names: string[] = [];
  for (const section of layout.sections) {
    if (section.id !== COMPONENT_IMPORT_SECTION_ID) continue;
    const reader = new ByteReader(bytes, section.payloadStart, section.end);
    const count = reader.unsigned();
    for (let index = 0; index < count; index += 1) {
      const form = reader.byte();
      if (form !== 0x00 && form !== 0x01) throw new Error(`unknown import name form 0x${form.toString(16)}`);
      names.push(reader.name());
      if (form === 0x01) reader.name();
      skipExternDescriptor(reader);
    }
  }
  return names;
}

/** `wasi:cli/stdout@0.2.3` → `wasi:cli/stdout` (the glue's keys are unversioned). */
export function unversionedName(name: string): string {
  const at = name.indexOf('@');
  return at === -1 ? name : name.slice(0, at);
}
