/**
 * What a core module says about its toolchain: the `producers` custom section (tool-conventions'
 * `language` and `processed-by` fields) and Go's `go:buildid` section. Stripped modules have neither.
 */
import { readBinaryLayout } from './binary-sections.ts';
import { ByteReader } from './core-module.ts';

const CUSTOM_SECTION = 0;

export interface ModuleProducers {
  /** Languages with versions as written, e.g. `C99`, `Rust 1.90`, `Go go1.26.8`. */
  language: string[];
  /** Tools, e.g. `Debian clang 14.0.6`, `rustc 1.90.0`, `Go cmd/compile go1.26.8`. */
  processedBy: string[];
  /** The module carries Go's `go:buildid` section. */
  goBuildId: boolean;
}

function readFields(reader: ByteReader): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  const fieldCount = reader.unsigned();
  for (let field = 0; field < fieldCount; field += 1) {
    const fieldName = reader.name();
    const values: string[] = [];
    const valueCount = reader.unsigned();
    for (let value = 0; value < valueCount; value += 1) {
      const name = reader.name();
      const version = reader.name();
      values.push(version === '' ? name : `${name} ${version}`);
    }
    fields.set(fieldName, values);
  }
  return fields;
}

/** The module's producers; empty lists when it has no (readable) producers section. */
export function readModuleProducers(bytes: Uint8Array): ModuleProducers {
  const producers: ModuleProducers = { language: [], processedBy: [], goBuildId: false };
  for (const section of readBinaryLayout(bytes).sections) {
    if (section.id !== CUSTOM_SECTION) continue;
    const reader = new ByteReader(bytes, section.payloadStart, section.end);
    let name: string;
    try {
      name = reader.name();
    } catch {
      continue;
    }
    if (name === 'go:buildid') producers.goBuildId = true;
    if (name !== 'producers') continue;
    try {
      const fields = readFields(reader);
      producers.language.push(...(fields.get('language') ?? []));
      producers.processedBy.push(...(fields.get('processed-by') ?? []));
    } catch {
      // A malformed producers section says nothing.
    }
  }
  return producers;
}
