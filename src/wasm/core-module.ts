/**
 * Reads what a core wasm module imports and exports (names and kinds only), from its import (2)
 * and export (7) sections. Enough to tell a wasip1 command from any other core module.
 */
import { readBinaryLayout } from './binary-sections.ts';
import { decodeUnsigned } from './leb128.ts';

export type CoreExternKind = 'func' | 'table' | 'memory' | 'global' | 'tag';

export interface CoreImport {
  module: string;
  name: string;
  kind: CoreExternKind;
}

export interface CoreExport {
  name: string;
  kind: CoreExternKind;
}

export interface CoreModuleInterface {
  imports: CoreImport[];
  exports: CoreExport[];
}

export const IMPORT_SECTION_ID = 2;
export const MEMORY_SECTION_ID = 5;
export const EXPORT_SECTION_ID = 7;

const KINDS: readonly CoreExternKind[] = ['func', 'table', 'memory', 'global', 'tag'];
const textDecoder = new TextDecoder('utf-8', { fatal: true });

/** A cursor over a section payload that throws on reads past its end. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public offset: number,
    readonly end: number,
  ) {}

  byte(): number {
    if (this.offset >= this.end) throw new Error(`unexpected end of section at byte ${this.offset}`);
    const value = this.bytes[this.offset] as number;
    this.offset += 1;
    return value;
  }

  unsigned(): number {
    const decoded = decodeUnsigned(this.bytes, this.offset);
    if (decoded.next > this.end) throw new Error(`unexpected end of section at byte ${this.offset}`);
    this.offset = decoded.next;
    return decoded.value;
  }

  name(): string {
    const length = this.unsigned();
    if (this.offset + length > this.end) throw new Error(`name at byte ${this.offset} runs past its section`);
    const text = textDecoder.decode(this.bytes.subarray(this.offset, this.offset + length));
    this.offset += length;
    return text;
  }
}

export interface MemoryLimits {
  flags: number;
  minimum: number;
  maximum: number | undefined;
}

const LIMITS_HAS_MAXIMUM = 0x01;
const LIMITS_SHARED = 0x02;
const LIMITS_MEMORY64 = 0x04;

/** Reads memory limits; 64-bit memories are refused (their limits are u64). */
export function readMemoryLimits(reader: ByteReader): MemoryLimits {
  const flags = reader.byte();
  if (flags & LIMITS_MEMORY64) throw new Error('64-bit memories are not supported');
  if (flags & ~(LIMITS_HAS_MAXIMUM | LIMITS_SHARED)) throw new Error(`unknown memory limits flags 0x${flags.toString(16)}`);
  const minimum = reader.unsigned();
  const maximum = flags & LIMITS_HAS_MAXIMUM ? reader.unsigned() : undefined;
  return { flags, minimum, maximum };
}

/** Skips the type part of an import descriptor of `kind`, or reads memory limits for memories. */
export function skipImportDescriptor(reader: ByteReader, kind: CoreExternKind): void {
  switch (kind) {
    case 'func':
      reader.unsigned();
      return;
    case 'table': {
      reader.byte();
      const flags = reader.byte();
      reader.unsigned();
      if (flags & LIMITS_HAS_MAXIMUM) reader.unsigned();
      return;
    }
    case 'memory':
      readMemoryLimits(reader);
      return;
    case 'global':
      reader.byte();
      reader.byte();
      return;
    case 'tag':
      reader.byte();
      reader.unsigned();
      return;
  }
}

export function readExternKind(reader: ByteReader): CoreExternKind {
  const code = reader.byte();
  const kind = KINDS[code];
  if (kind === undefined) throw new Error(`unknown import/export kind 0x${code.toString(16)}`);
  return kind;
}

/** Lists a core module's imports and exports; throws an Error with the reason on malformed input. */
export function readCoreModuleInterface(bytes: Uint8Array): CoreModuleInterface {
  const layout = readBinaryLayout(bytes);
  if (layout.kind !== 'core-module') throw new Error('not a core module');
  const imports: CoreImport[] = [];
  const exports: CoreExport[] = [];
  for (const section of layout.sections) {
    if (section.id === IMPORT_SECTION_ID) {
      const reader = new ByteReader(bytes, section.payloadStart, section.end);
      const count = reader.unsigned();
      for (let index = 0; index < count; index += 1) {
        const module = reader.name();
        const name = reader.name();
        const kind = readExternKind(reader);
        skipImportDescriptor(reader, kind);
        imports.push({ module, name, kind });
      }
    } else if (section.id === EXPORT_SECTION_ID) {
      const reader = new ByteReader(bytes, section.payloadStart, section.end);
      const count = reader.unsigned();
      for (let index = 0; index < count; index += 1) {
        const name = reader.name();
        const kind = readExternKind(reader);
        reader.unsigned();
        exports.push({ name, kind });
      }
    }
  }
  return { imports, exports };
}

export const WASIP1_MODULE = 'wasi_snapshot_preview1';

/**
 * Why a core module is not a wasip1 command, or undefined when it is one: it exports a `_start`
 * function and imports functions from `wasi_snapshot_preview1` only (a memory import is not allowed:
 * the command adapter cannot provide one).
 */
export function wasip1CommandProblem(moduleInterface: CoreModuleInterface): string | undefined {
  const start = moduleInterface.exports.find((entry) => entry.name === '_start');
  if (start === undefined || start.kind !== 'func') {
    return 'core module is not a wasip1 command: it exports no _start function';
  }
  if (!moduleInterface.exports.some((entry) => entry.name === 'memory' && entry.kind === 'memory')) {
    return 'core module is not a wasip1 command: it exports no memory';
  }
  const foreign = moduleInterface.imports.find((entry) => entry.module !== WASIP1_MODULE || entry.kind !== 'func');
  if (foreign !== undefined) {
    return `core module imports ${foreign.kind} "${foreign.module}"."${foreign.name}", which no WASI host provides`;
  }
  return undefined;
}
