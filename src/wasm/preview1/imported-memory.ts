/**
 * `importDefinedMemory`: rewrites a core module that defines its one linear memory into the same
 * module importing that memory (`"toolhost:pristine" "memory/<minimum>/<maximum>"`, same limits; the
 * name carries the limits so a compiled module posted to a worker needs nothing beside it), so the preview1 host
 * can hand each call a memory of its own making (memory-pool.ts) instead of V8 reserving a fresh
 * one per instance. Nothing else changes: the memory keeps index 0 (an imported memory comes before
 * defined ones, and there are none left), its export, data segments and every function index stay
 * as they were. Modules with no memory, several, an imported one, or a shared one come back as
 * `undefined` (left as they are). Linear in the module's size; malformed input throws an Error.
 */
import { readBinaryLayout } from '../binary-sections.ts';
import { concatBytes } from '../bytes.ts';
import { ByteReader, IMPORT_SECTION_ID, MEMORY_SECTION_ID, readExternKind, readMemoryLimits, skipImportDescriptor, type MemoryLimits } from '../core-module.ts';
import { encodeUnsigned } from '../leb128.ts';

/** The import module the rewritten module names its memory by. */
export const PRISTINE_MEMORY_MODULE = 'toolhost:pristine';
const NAME_PATTERN = /^memory\/(\d{1,5})\/(\d{1,5})$/;

/** The memory import's name: `memory/<minimum pages>/<maximum pages>`. */
export function pristineMemoryName(minimumPages: number, maximumPages: number): string {
  return `memory/${minimumPages}/${maximumPages}`;
}

/** The limits a memory import's name states, or undefined when it is not such a name. */
export function parsePristineMemoryName(name: string): { minimumPages: number; maximumPages: number } | undefined {
  const match = NAME_PATTERN.exec(name);
  if (match === null) return undefined;
  return { minimumPages: Number(match[1]), maximumPages: Number(match[2]) };
}

const TYPE_SECTION_ID = 1;
const CUSTOM_SECTION_ID = 0;
const EXTERN_KIND_MEMORY = 0x02;
const LIMITS_SHARED = 0x02;

export interface ImportedMemoryModule {
  bytes: Uint8Array;
  /** The memory's limits (pages), as the module declared them. */
  minimumPages: number;
  maximumPages: number;
}

function encodeName(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  return concatBytes([encodeUnsigned(bytes.length), bytes]);
}

function section(id: number, payload: Uint8Array): Uint8Array {
  return concatBytes([Uint8Array.of(id), encodeUnsigned(payload.length), payload]);
}

export function importDefinedMemory(bytes: Uint8Array): ImportedMemoryModule | undefined {
  const layout = readBinaryLayout(bytes);
  if (layout.kind !== 'core-module') throw new Error('not a core module');
  let importSection: (typeof layout.sections)[number] | undefined;
  let memorySection: (typeof layout.sections)[number] | undefined;
  for (const entry of layout.sections) {
    if (entry.id === IMPORT_SECTION_ID) importSection = entry;
    if (entry.id === MEMORY_SECTION_ID) memorySection = entry;
  }
  if (memorySection === undefined) return undefined;
  const memoryReader = new ByteReader(bytes, memorySection.payloadStart, memorySection.end);
  if (memoryReader.unsigned() !== 1) return undefined;
  const limitsStart = memoryReader.offset;
  const limits: MemoryLimits = readMemoryLimits(memoryReader);
  const limitsBytes = bytes.subarray(limitsStart, memoryReader.offset);
  // a memory without a maximum is left alone: the memory cap (memory-limit.ts) gives every one a maximum first
  if (memoryReader.offset !== memorySection.end || (limits.flags & LIMITS_SHARED) !== 0 || limits.maximum === undefined) return undefined;

  let importCount = 0;
  let importEntries: Uint8Array = new Uint8Array(0);
  if (importSection !== undefined) {
    const reader = new ByteReader(bytes, importSection.payloadStart, importSection.end);
    importCount = reader.unsigned();
    const entriesStart = reader.offset;
    for (let index = 0; index < importCount; index += 1) {
      reader.name();
      reader.name();
      const kind = readExternKind(reader);
      if (kind === 'memory') return undefined;
      skipImportDescriptor(reader, kind);
    }
    if (reader.offset !== importSection.end) throw new Error('the import section has trailing bytes');
    importEntries = bytes.subarray(entriesStart, importSection.end);
  }
  const memoryImport = concatBytes([encodeName(PRISTINE_MEMORY_MODULE), encodeName(pristineMemoryName(limits.minimum, limits.maximum)), Uint8Array.of(EXTERN_KIND_MEMORY), limitsBytes]);
  const newImportSection = section(IMPORT_SECTION_ID, concatBytes([encodeUnsigned(importCount + 1), importEntries, memoryImport]));

  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let placed = false;
  for (const entry of layout.sections) {
    // the import section goes where it was, or after the type section (ids 0 and 1 precede it)
    if (!placed && importSection === undefined && entry.id !== CUSTOM_SECTION_ID && entry.id !== TYPE_SECTION_ID) {
      parts.push(newImportSection);
      placed = true;
    }
    if (entry === importSection) {
      parts.push(newImportSection);
      placed = true;
    } else if (entry !== memorySection) {
      parts.push(bytes.subarray(entry.start, entry.end));
    }
  }
  if (!placed) parts.push(newImportSection);
  return { bytes: concatBytes(parts), minimumPages: limits.minimum, maximumPages: limits.maximum };
}
