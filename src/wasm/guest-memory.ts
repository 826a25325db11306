/**
 * Keeps the preview1 adapter's memory out of the guest's heap.
 *
 * The command adapter allocates its stack and its `State` (one wasm page each) with `memory.grow`
 * at the end of the guest's linear memory, unless the guest exports `cabi_realloc`. Go's runtime
 * (runtime/mem_wasm.go `sbrk`) assumes every page past its break is its own: it grows memory by
 * what it needs and hands out the pages right after its old break, i.e. the adapter's pages, as heap.
 * The next write wipes the adapter's state ("assertion failed at adapter line 2745", the `State`
 * canary) or the adapter's stack corrupts Go's heap. wasmtime and node:wasi run these binaries
 * natively, with no adapter in the guest's memory, so they do not see this.
 *
 * The fix rewrites the wasip1 core module before it is wrapped:
 * - every `memory.size` / `memory.grow` of the guest calls a routed size/grow pair that keeps the
 *   guest's own page count; the guest sees only its pages and may never grow past the reserve;
 * - an exported `cabi_realloc` (used by the adapter, and by every reactor adapter, for their
 *   page-sized stack and state) first grows the memory to its maximum (the policy cap, set when the
 *   module is compiled), then hands out pages downward from the top: addresses the guest never reaches;
 * - an exported global `toolhost_memory_exhausted` becomes 1 when a guest grow was refused, so the
 *   runtime can report "ran out of memory" exactly.
 * Pages grown to the maximum are reserved address space, not resident memory, until touched.
 */
import { readBinaryLayout, type BinarySection } from './binary-sections.ts';
import { ByteReader, readCoreModuleInterface, readExternKind, readMemoryLimits, skipImportDescriptor } from './core-module.ts';
import { encodeUnsigned } from './leb128.ts';
import { concatBytes } from './bytes.ts';
import { readModuleProducers } from './producers.ts';

export const MEMORY_EXHAUSTED_EXPORT = 'toolhost_memory_exhausted';
export const ADAPTER_REALLOC_EXPORT = 'cabi_realloc';

const TYPE_SECTION = 1;
const IMPORT_SECTION = 2;
const FUNCTION_SECTION = 3;
const MEMORY_SECTION = 5;
const GLOBAL_SECTION = 6;
const EXPORT_SECTION = 7;
const CODE_SECTION = 10;

const MEMORY_SIZE = 0x3f;
const MEMORY_GROW = 0x40;

/** Skips one LEB128 number (signed or unsigned). */
function skipNumber(bytes: Uint8Array, offset: number): number {
  let cursor = offset;
  while (((bytes[cursor] as number) & 0x80) !== 0) cursor += 1;
  return cursor + 1;
}

function readNumber(bytes: Uint8Array, offset: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let cursor = offset;
  for (;;) {
    const byte = bytes[cursor] as number;
    value += (byte & 0x7f) * 2 ** shift;
    cursor += 1;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: cursor };
  }
}

/** The offsets of the `memory.size` and `memory.grow` opcodes in one function body (`start..end`, locals included). */
export function findMemoryInstructions(bytes: Uint8Array, start: number, end: number): number[] {
  let cursor = start;
  const localGroups = readNumber(bytes, cursor);
  cursor = localGroups.next;
  for (let group = 0; group < localGroups.value; group += 1) {
    cursor = skipNumber(bytes, cursor);
    cursor += 1;
  }
  const found: number[] = [];
  while (cursor < end) {
    const at = cursor;
    const opcode = bytes[cursor] as number;
    cursor += 1;
    if (opcode === 0x02 || opcode === 0x03 || opcode === 0x04) {
      const blockType = bytes[cursor] as number;
      cursor = blockType === 0x40 || (blockType >= 0x6f && blockType <= 0x7f) ? cursor + 1 : skipNumber(bytes, cursor);
    } else if (opcode === 0x0c || opcode === 0x0d || opcode === 0x10 || opcode === 0x12 || (opcode >= 0x20 && opcode <= 0x26) || opcode === 0xd2) {
      cursor = skipNumber(bytes, cursor);
    } else if (opcode === 0x0e) {
      const count = readNumber(bytes, cursor);
      cursor = count.next;
      for (let index = 0; index <= count.value; index += 1) cursor = skipNumber(bytes, cursor);
    } else if (opcode === 0x11 || opcode === 0x13) {
      cursor = skipNumber(bytes, skipNumber(bytes, cursor));
    } else if (opcode === 0x1c) {
      const count = readNumber(bytes, cursor);
      cursor = count.next + count.value;
    } else if (opcode >= 0x28 && opcode <= 0x3e) {
      const align = readNumber(bytes, cursor);
      cursor = align.next;
      if ((align.value & 0x40) !== 0) cursor = skipNumber(bytes, cursor);
      cursor = skipNumber(bytes, cursor);
    } else if (opcode === MEMORY_SIZE || opcode === MEMORY_GROW) {
      if (bytes[cursor] !== 0x00) throw new Error(`multi-memory ${opcode === MEMORY_SIZE ? 'memory.size' : 'memory.grow'} at byte ${at}`);
      found.push(at);
      cursor += 1;
    } else if (opcode === 0x41 || opcode === 0x42) {
      cursor = skipNumber(bytes, cursor);
    } else if (opcode === 0x43) {
      cursor += 4;
    } else if (opcode === 0x44) {
      cursor += 8;
    } else if (opcode === 0xd0) {
      cursor += 1;
    } else if (opcode === 0xfc) {
      const sub = readNumber(bytes, cursor);
      cursor = sub.next;
      const immediates = [0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1][sub.value];
      if (immediates === undefined) throw new Error(`unknown instruction 0xfc ${sub.value} at byte ${at}`);
      for (let index = 0; index < immediates; index += 1) cursor = skipNumber(bytes, cursor);
    } else if (opcode <= 0x01 || opcode === 0x05 || opcode === 0x0b || opcode === 0x0f || opcode === 0x1a || opcode === 0x1b || (opcode >= 0x45 && opcode <= 0xc4) || opcode === 0xd1) {
      // no immediates
    } else {
      throw new Error(`unsupported instruction 0x${opcode.toString(16)} at byte ${at}`);
    }
  }
  if (cursor !== end) throw new Error(`function body ends mid-instruction at byte ${end}`);
  return found;
}


function vector(count: number, items: readonly Uint8Array[]): Uint8Array {
  return concatBytes([encodeUnsigned(count), ...items]);
}

function section(id: number, payload: Uint8Array): Uint8Array {
  return concatBytes([Uint8Array.of(id), encodeUnsigned(payload.length), payload]);
}

function name(text: string): Uint8Array {
  const encoded = new TextEncoder().encode(text);
  return concatBytes([encodeUnsigned(encoded.length), encoded]);
}

/** Bytes of a code-section entry from its instructions (no extra locals beyond `locals` i32s). */
function functionBody(i32Locals: number, instructions: readonly (number | Uint8Array)[]): Uint8Array {
  const code = concatBytes(instructions.map((part) => (typeof part === 'number' ? Uint8Array.of(part) : part)));
  const locals = i32Locals === 0 ? Uint8Array.of(0) : concatBytes([Uint8Array.of(1), encodeUnsigned(i32Locals), Uint8Array.of(0x7f)]);
  const body = concatBytes([locals, code, Uint8Array.of(0x0b)]);
  return concatBytes([encodeUnsigned(body.length), body]);
}

const I32 = 0x7f;
const op = {
  unreachable: 0x00,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  globalGet: 0x23,
  globalSet: 0x24,
  memorySize: [MEMORY_SIZE, 0x00],
  memoryGrow: [MEMORY_GROW, 0x00],
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32LtU: 0x49,
  i32GtU: 0x4b,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Or: 0x72,
  i32Shl: 0x74,
  i32ShrU: 0x76,
  void: 0x40,
} as const;

function signed(value: number): Uint8Array {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return Uint8Array.from(out);
  }
}

function index(value: number): Uint8Array {
  return encodeUnsigned(value);
}

interface Globals {
  guestPages: number;
  top: number;
  reserved: number;
  exhausted: number;
}

/** size(): the guest's own page count. */
function sizeBody(globals: Globals): Uint8Array {
  return functionBody(0, [op.globalGet, index(globals.guestPages)]);
}

/** grow(delta): grows the guest's pages, physically when needed, never into the adapter's reserve. */
function growBody(globals: Globals): Uint8Array {
  const [old, wanted] = [1, 2];
  const refuse = [op.i32Const, 1, op.globalSet, index(globals.exhausted), op.i32Const, signed(-1), op.return];
  return functionBody(2, [
    op.globalGet, index(globals.guestPages), op.localTee, old,
    op.localGet, 0, op.i32Add, op.localSet, wanted,
    // the sum wrapped around: more than the address space
    op.localGet, wanted, op.localGet, old, op.i32LtU, op.if, op.void, ...refuse, op.end,
    op.globalGet, index(globals.top), op.if, op.void,
    op.localGet, wanted, op.globalGet, index(globals.top), op.globalGet, index(globals.reserved), op.i32Sub, op.i32GtU,
    op.if, op.void, ...refuse, op.end,
    op.end,
    op.localGet, wanted, ...op.memorySize, op.i32GtU, op.if, op.void,
    op.localGet, wanted, ...op.memorySize, op.i32Sub, ...op.memoryGrow, op.i32Const, signed(-1), op.i32Eq,
    op.if, op.void, ...refuse, op.end,
    op.end,
    op.localGet, wanted, op.globalSet, index(globals.guestPages),
    op.localGet, old,
  ]);
}

/** cabi_realloc(old, oldSize, align, size): fresh pages from the top of the memory, for the adapters only. */
function reallocBody(globals: Globals): Uint8Array {
  const step = 4;
  return functionBody(1, [
    op.localGet, 0, op.localGet, 1, op.i32Or, op.if, op.void, op.unreachable, op.end,
    op.globalGet, index(globals.top), op.i32Eqz, op.if, op.void,
    op.i32Const, signed(65536), op.localSet, step,
    op.block, op.void, op.loop, op.void,
    op.localGet, step, op.i32Eqz, op.brIf, 1,
    op.localGet, step, ...op.memoryGrow, op.i32Const, signed(-1), op.i32Eq,
    op.if, op.void, op.localGet, step, op.i32Const, 1, op.i32ShrU, op.localSet, step, op.end,
    op.br, 0,
    op.end, op.end,
    ...op.memorySize, op.globalSet, index(globals.top),
    op.end,
    op.localGet, 3, op.i32Const, signed(65535), op.i32Add, op.i32Const, 16, op.i32ShrU,
    op.globalGet, index(globals.reserved), op.i32Add, op.globalSet, index(globals.reserved),
    op.globalGet, index(globals.top), op.globalGet, index(globals.reserved), op.i32Sub, op.localTee, step,
    op.globalGet, index(globals.guestPages), op.i32LtU, op.if, op.void,
    op.i32Const, 1, op.globalSet, index(globals.exhausted), op.unreachable,
    op.end,
    op.localGet, step, op.i32Const, 16, op.i32Shl,
  ]);
}

export interface RoutedMemory {
  bytes: Uint8Array;
  /** How many `memory.size` / `memory.grow` instructions now call the routed pair. */
  routedInstructions: number;
}

/** Languages whose allocators start each new region at what `memory.grow` returns (wasi-libc's sbrk, Rust's). */
const GROW_RESULT_LANGUAGES = /^(C\+\+|C|Rust)(\d|\s|$)/;
const CONTIGUOUS_HEAP_TOOLS = /TinyGo|Go cmd\/compile/i;

/**
 * Whether a wasip1 module must be routed. Go's runtime (and TinyGo's) keep their own heap end and take
 * every page past it as theirs, so the adapter's pages must sit out of reach. C/C++ (wasi-libc) and
 * Rust allocators start each new region at the address `memory.grow` returns, so pages the adapter
 * grew in between are never handed out: such a module runs unrouted, as the same program built into a
 * component does — and much faster, because routing grows every call's memory to its cap, which V8
 * counts as that much external memory and collects for (7.5 ms against 0.1 ms a call for a small C
 * tool). Only a module whose producers section names such a language, and nothing Go, is left alone; a
 * stripped module (no producers section) is routed, which is always safe.
 */
export function needsMemoryRouting(bytes: Uint8Array): boolean {
  const producers = readModuleProducers(bytes);
  if (producers.goBuildId || producers.processedBy.some((tool) => CONTIGUOUS_HEAP_TOOLS.test(tool))) return true;
  if (producers.language.length === 0) return true;
  return !producers.language.every((language) => GROW_RESULT_LANGUAGES.test(language));
}

/**
 * Rewrites a wasip1 core module so the adapters' pages live above anything the guest can reach
 * (see the module comment). Returns undefined when the module needs no routing: it exports its own
 * `cabi_realloc` or never grows its memory. Throws an Error when the module cannot be rewritten
 * (an instruction this reader does not know, several memories, an imported memory).
 */
export function routeGuestMemory(bytes: Uint8Array): RoutedMemory | undefined {
  const moduleInterface = readCoreModuleInterface(bytes);
  if (moduleInterface.exports.some((entry) => entry.name === ADAPTER_REALLOC_EXPORT || entry.name === MEMORY_EXHAUSTED_EXPORT)) return undefined;
  if (moduleInterface.imports.some((entry) => entry.kind === 'memory')) throw new Error('the module imports its memory');
  const sections = findRoutingSections(bytes);
  if (sections === undefined) return undefined;
  const initialPages = readOnlyMemoryPages(bytes, sections.memory);
  const bodies = readFunctionBodies(bytes, sections.code);
  const routedInstructions = bodies.reduce((sum, body) => sum + body.sites.length, 0);
  if (routedInstructions === 0) return undefined;

  const imported = countImports(bytes, sections.imports);
  const definedGlobals = sections.globals === undefined ? 0 : new ByteReader(bytes, sections.globals.payloadStart, sections.globals.end).unsigned();
  const firstGlobal = imported.globals + definedGlobals;
  const globals: Globals = { guestPages: firstGlobal, top: firstGlobal + 1, reserved: firstGlobal + 2, exhausted: firstGlobal + 3 };
  const added = appendRoutingFunctions(bytes, sections, imported.functions);
  const payloads: Map<number, Uint8Array> = new Map([
    [TYPE_SECTION, added.types],
    [FUNCTION_SECTION, added.functions],
    [GLOBAL_SECTION, routingGlobals(bytes, sections.globals, definedGlobals, initialPages)],
    [EXPORT_SECTION, routingExports(bytes, sections.exports, added.reallocFunction, globals.exhausted)],
    [CODE_SECTION, vector(bodies.length + 3, [...rewriteBodies(bytes, bodies, added.sizeFunction, added.growFunction), sizeBody(globals), growBody(globals), reallocBody(globals)])],
  ]);
  return { bytes: assembleModule(bytes, sections.layout, payloads), routedInstructions };
}

interface RoutingSections {
  layout: ReturnType<typeof readBinaryLayout>;
  types: BinarySection;
  functions: BinarySection;
  memory: BinarySection;
  exports: BinarySection;
  code: BinarySection;
  imports: BinarySection | undefined;
  globals: BinarySection | undefined;
}

/** The sections routing reads and rewrites; undefined when one it needs is missing (nothing to route). */
function findRoutingSections(bytes: Uint8Array): RoutingSections | undefined {
  const layout = readBinaryLayout(bytes);
  const find = (id: number) => layout.sections.find((candidate) => candidate.id === id);
  const [types, functions, memory, exports, code] = [find(TYPE_SECTION), find(FUNCTION_SECTION), find(MEMORY_SECTION), find(EXPORT_SECTION), find(CODE_SECTION)];
  if (!types || !functions || !memory || !exports || !code) return undefined;
  return { layout, types, functions, memory, exports, code, imports: find(IMPORT_SECTION), globals: find(GLOBAL_SECTION) };
}

/** The initial pages of the module's one memory; throws when it defines several. */
function readOnlyMemoryPages(bytes: Uint8Array, memory: BinarySection): number {
  const reader = new ByteReader(bytes, memory.payloadStart, memory.end);
  if (reader.unsigned() !== 1) throw new Error('the module defines more than one memory');
  return readMemoryLimits(reader).minimum;
}

interface FunctionBody {
  start: number;
  end: number;
  /** Offsets of the body's memory.size / memory.grow instructions. */
  sites: number[];
}

/** Every function body with the memory.size / memory.grow instructions in it. */
function readFunctionBodies(bytes: Uint8Array, code: BinarySection): FunctionBody[] {
  const reader = new ByteReader(bytes, code.payloadStart, code.end);
  const count = reader.unsigned();
  const bodies: FunctionBody[] = [];
  for (let body = 0; body < count; body += 1) {
    const size = reader.unsigned();
    const start = reader.offset;
    const end = start + size;
    bodies.push({ start, end, sites: findMemoryInstructions(bytes, start, end) });
    reader.offset = end;
  }
  return bodies;
}

/** Imported functions and globals come first in their index spaces: the added ones are numbered after both. */
function countImports(bytes: Uint8Array, imports: BinarySection | undefined): { functions: number; globals: number } {
  const counts = { functions: 0, globals: 0 };
  if (imports === undefined) return counts;
  const reader = new ByteReader(bytes, imports.payloadStart, imports.end);
  const count = reader.unsigned();
  for (let entry = 0; entry < count; entry += 1) {
    reader.name();
    reader.name();
    const kind = readExternKind(reader);
    skipImportDescriptor(reader, kind);
    if (kind === 'func') counts.functions += 1;
    if (kind === 'global') counts.globals += 1;
  }
  return counts;
}

/** The type and function sections with the routed size, grow and realloc functions appended, and their indices. */
function appendRoutingFunctions(bytes: Uint8Array, sections: RoutingSections, importedFunctions: number) {
  const typeReader = new ByteReader(bytes, sections.types.payloadStart, sections.types.end);
  const typeCount = typeReader.unsigned();
  const [sizeType, growType, reallocType] = [typeCount, typeCount + 1, typeCount + 2];
  const functionReader = new ByteReader(bytes, sections.functions.payloadStart, sections.functions.end);
  const definedFunctions = functionReader.unsigned();
  const sizeFunction = importedFunctions + definedFunctions;
  const newTypes = [
    Uint8Array.of(0x60, 0, 1, I32),
    Uint8Array.of(0x60, 1, I32, 1, I32),
    Uint8Array.of(0x60, 4, I32, I32, I32, I32, 1, I32),
  ];
  return {
    types: vector(typeCount + 3, [bytes.subarray(typeReader.offset, sections.types.end), ...newTypes]),
    functions: vector(definedFunctions + 3, [bytes.subarray(functionReader.offset, sections.functions.end), index(sizeType), index(growType), index(reallocType)]),
    sizeFunction,
    growFunction: sizeFunction + 1,
    reallocFunction: sizeFunction + 2,
  };
}

/** The global section with the four routing globals appended (guest pages, top, reserved, exhausted). */
function routingGlobals(bytes: Uint8Array, globals: BinarySection | undefined, definedGlobals: number, initialPages: number): Uint8Array {
  const mutableI32 = (value: number) => concatBytes([Uint8Array.of(I32, 1, op.i32Const), signed(value), Uint8Array.of(op.end)]);
  let existing: Uint8Array = new Uint8Array();
  if (globals !== undefined) {
    const reader = new ByteReader(bytes, globals.payloadStart, globals.end);
    reader.unsigned();
    existing = bytes.subarray(reader.offset, globals.end);
  }
  return vector(definedGlobals + 4, [existing, mutableI32(initialPages), mutableI32(0), mutableI32(0), mutableI32(0)]);
}

/** The export section with `cabi_realloc` and the exhausted flag added. */
function routingExports(bytes: Uint8Array, exports: BinarySection, reallocFunction: number, exhaustedGlobal: number): Uint8Array {
  const reader = new ByteReader(bytes, exports.payloadStart, exports.end);
  const count = reader.unsigned();
  return vector(count + 2, [
    bytes.subarray(reader.offset, exports.end),
    concatBytes([name(ADAPTER_REALLOC_EXPORT), Uint8Array.of(0x00), index(reallocFunction)]),
    concatBytes([name(MEMORY_EXHAUSTED_EXPORT), Uint8Array.of(0x03), index(exhaustedGlobal)]),
  ]);
}

/** Each body with its memory.size / memory.grow replaced by calls to the routed pair, size-prefixed. */
function rewriteBodies(bytes: Uint8Array, bodies: readonly FunctionBody[], sizeFunction: number, growFunction: number): Uint8Array[] {
  const callSize = concatBytes([Uint8Array.of(0x10), index(sizeFunction)]);
  const callGrow = concatBytes([Uint8Array.of(0x10), index(growFunction)]);
  return bodies.map((body) => {
    if (body.sites.length === 0) return concatBytes([encodeUnsigned(body.end - body.start), bytes.subarray(body.start, body.end)]);
    const parts: Uint8Array[] = [];
    let cursor = body.start;
    for (const site of body.sites) {
      parts.push(bytes.subarray(cursor, site), bytes[site] === MEMORY_SIZE ? callSize : callGrow);
      cursor = site + 2;
    }
    parts.push(bytes.subarray(cursor, body.end));
    const rewritten = concatBytes(parts);
    return concatBytes([encodeUnsigned(rewritten.length), rewritten]);
  });
}

/** The module with the given section payloads replaced; the global section goes right before the exports. */
function assembleModule(bytes: Uint8Array, layout: RoutingSections['layout'], payloads: ReadonlyMap<number, Uint8Array>): Uint8Array {
  const out: Uint8Array[] = [bytes.subarray(0, 8)];
  for (const entry of layout.sections) {
    if (entry.id === GLOBAL_SECTION) continue;
    if (entry.id === EXPORT_SECTION) out.push(section(GLOBAL_SECTION, payloads.get(GLOBAL_SECTION) as Uint8Array));
    const payload = payloads.get(entry.id);
    out.push(payload === undefined ? bytes.subarray(entry.start, entry.end) : section(entry.id, payload));
  }
  return concatBytes(out);
}
