/**
 * Caps the linear memories of a core wasm module: rewrites the maximum of every memory the module
 * defines (memory section) or imports (import section) to at most `maximumPages`, so `memory.grow`
 * fails past the cap instead of growing host memory. Limits already below the cap are kept.
 */
import { readBinaryLayout } from './binary-sections.ts';
import {
  ByteReader,
  IMPORT_SECTION_ID,
  MEMORY_SECTION_ID,
  readExternKind,
  readMemoryLimits,
  skipImportDescriptor,
  type MemoryLimits,
} from './core-module.ts';
import { encodeUnsigned } from './leb128.ts';
import { concatBytes } from './bytes.ts';

export const WASM_PAGE_BYTES = 65536;
const LIMITS_HAS_MAXIMUM = 0x01;

/** Pages that fit in `bytes` (rounded down, at least 1). */
export function pagesForBytes(bytes: number): number {
  return Math.max(1, Math.floor(bytes / WASM_PAGE_BYTES));
}

export class MemoryCapError extends Error {
  override name = 'MemoryCapError';
}

function cappedLimits(limits: MemoryLimits, maximumPages: number, where: string): Uint8Array {
  if (limits.minimum > maximumPages) {
    throw new MemoryCapError(
      `${where} needs at least ${limits.minimum} pages (${limits.minimum * 64} KiB), above the cap of ${maximumPages} pages`,
    );
  }
  const maximum = limits.maximum === undefined ? maximumPages : Math.min(limits.maximum, maximumPages);
  const flags = limits.flags | LIMITS_HAS_MAXIMUM;
  const minimum = encodeUnsigned(limits.minimum);
  const encodedMaximum = encodeUnsigned(maximum);
  const out = new Uint8Array(1 + minimum.length + encodedMaximum.length);
  out[0] = flags;
  out.set(minimum, 1);
  out.set(encodedMaximum, 1 + minimum.length);
  return out;
}

/** Rebuilds a section's payload, replacing each memory limits span with its capped encoding. */
function rewriteSpans(bytes: Uint8Array, start: number, end: number, spans: { start: number; end: number; replacement: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let cursor = start;
  for (const span of spans) {
    parts.push(bytes.subarray(cursor, span.start), span.replacement);
    cursor = span.end;
  }
  parts.push(bytes.subarray(cursor, end));
  return concatBytes(parts);
}

/**
 * Returns a copy of the core module `bytes` whose memories all have a maximum of at most
 * `maximumPages`. Throws MemoryCapError when a memory's minimum is already above the cap, and an
 * Error for malformed input. Bytes without memories come back unchanged (same array).
 */
export function capMemoryPages(bytes: Uint8Array, maximumPages: number): Uint8Array {
  if (!Number.isInteger(maximumPages) || maximumPages < 1 || maximumPages > 65536) {
    throw new RangeError(`memory cap must be 1..65536 pages, got ${maximumPages}`);
  }
  const layout = readBinaryLayout(bytes);
  if (layout.kind !== 'core-module') throw new Error('not a core module');
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let changed = false;
  for (const section of layout.sections) {
    const spans: { start: number; end: number; replacement: Uint8Array }[] = [];
    const reader = new ByteReader(bytes, section.payloadStart, section.end);
    if (section.id === IMPORT_SECTION_ID) {
      const count = reader.unsigned();
      for (let index = 0; index < count; index += 1) {
        const module = reader.name();
        const name = reader.name();
        const kind = readExternKind(reader);
        if (kind === 'memory') {
          const start = reader.offset;
          const limits = readMemoryLimits(reader);
          spans.push({ start, end: reader.offset, replacement: cappedLimits(limits, maximumPages, `imported memory "${module}"."${name}"`) });
        } else {
          skipImportDescriptor(reader, kind);
        }
      }
    } else if (section.id === MEMORY_SECTION_ID) {
      const count = reader.unsigned();
      for (let index = 0; index < count; index += 1) {
        const start = reader.offset;
        const limits = readMemoryLimits(reader);
        spans.push({ start, end: reader.offset, replacement: cappedLimits(limits, maximumPages, `memory ${index}`) });
      }
    }
    if (spans.length === 0) {
      parts.push(bytes.subarray(section.start, section.end));
      continue;
    }
    changed = true;
    const payload = rewriteSpans(bytes, section.payloadStart, section.end, spans);
    parts.push(Uint8Array.of(section.id), encodeUnsigned(payload.length), payload);
  }
  return changed ? concatBytes(parts) : bytes;
}
