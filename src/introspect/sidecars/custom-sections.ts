/**
 * Custom sections of a wasm binary, found by walking its section headers: a core module's top level,
 * a component's top level, and one level down into the core modules and components a component embeds
 * (where a section written by the guest's toolchain, e.g. Rust's `#[link_section]`, ends up after
 * `wasm-tools component new`). The walk reads each section's id and size and skips its payload, so it
 * is linear in the number of sections, never in their size, and it is capped: at most
 * `MAX_SECTIONS_WALKED` headers and `MAX_NESTING` levels. Nothing is compiled or instantiated.
 *
 * Contract: `findCustomSections` never throws; a malformed binary ends the walk with what was found so
 * far and a `problem`. Only sections whose name is in `names` are returned (the first one of each name,
 * top level first), each as a view into `bytes`.
 */

/** Most section headers one walk reads (over all levels). */
export const MAX_SECTIONS_WALKED = 100_000;
/** How far into nested modules and components the walk looks (0 = the top level only). */
export const MAX_NESTING = 2;

const MAGIC = [0x00, 0x61, 0x73, 0x6d];
const CUSTOM_SECTION = 0;
/** A component's section ids holding a nested core module and a nested component. */
const COMPONENT_CORE_MODULE = 1;
const COMPONENT_NESTED = 4;
/** The layer field of the header: 0 for a core module, 1 for a component. */
const COMPONENT_LAYER = 1;

export interface CustomSectionScan {
  sections: Map<string, Uint8Array>;
  /** Why the walk stopped early (a truncated or malformed binary, a cap reached). */
  problem?: string;
}

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    public offset: number,
    private readonly end: number,
  ) {}

  get done(): boolean {
    return this.offset >= this.end;
  }

  byte(): number {
    if (this.offset >= this.end) throw new RangeError('unexpected end of the binary');
    return this.bytes[this.offset++] ?? 0;
  }

  /** An unsigned LEB128 of at most 32 bits. */
  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (result > 0xffffffff) throw new RangeError('a size larger than 32 bits');
        return result;
      }
    }
    throw new RangeError('a LEB128 number longer than 5 bytes');
  }
}

/** The sections named in `names`, from a core module or component binary (see the module comment). */
export function findCustomSections(bytes: Uint8Array, names: ReadonlySet<string>): CustomSectionScan {
  const sections = new Map<string, Uint8Array>();
  const budget = { walked: 0 };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const walk = (start: number, end: number, depth: number): void => {
    if (end - start < 8 || MAGIC.some((byte, index) => bytes[start + index] !== byte)) throw new RangeError('not a wasm binary (no \\0asm header)');
    const isComponent = bytes[start + 6] === COMPONENT_LAYER && bytes[start + 7] === 0;
    const reader = new Reader(bytes, start + 8, end);
    while (!reader.done) {
      budget.walked += 1;
      if (budget.walked > MAX_SECTIONS_WALKED) throw new RangeError(`more than ${MAX_SECTIONS_WALKED} sections`);
      const id = reader.byte();
      const size = reader.u32();
      const payload = reader.offset;
      const payloadEnd = payload + size;
      if (payloadEnd > end) throw new RangeError('a section runs past the end of the binary');
      if (id === CUSTOM_SECTION) {
        const nameReader = new Reader(bytes, payload, payloadEnd);
        const nameLength = nameReader.u32();
        const nameEnd = nameReader.offset + nameLength;
        if (nameEnd > payloadEnd) throw new RangeError('a custom section name runs past its section');
        // Only names as long as a wanted one are decoded: most custom sections (debug info) are skipped unread.
        if ([...names].some((name) => name.length === nameLength)) {
          const name = decoder.decode(bytes.subarray(nameReader.offset, nameEnd));
          if (names.has(name) && !sections.has(name)) sections.set(name, bytes.subarray(nameEnd, payloadEnd));
        }
      } else if (isComponent && (id === COMPONENT_CORE_MODULE || id === COMPONENT_NESTED) && depth < MAX_NESTING) {
        walk(payload, payloadEnd, depth + 1);
      }
      reader.offset = payloadEnd;
    }
  };
  try {
    walk(0, bytes.length, 0);
    return { sections };
  } catch (error) {
    return { sections, problem: error instanceof Error ? error.message : String(error) };
  }
}
