/**
 * Whether a failed call ran out of memory: looked at after the call, on the memories of its core
 * instances (the component path's several, the preview1 host's one).
 */

/** What a call saw of one core instance: enough to tell afterwards whether memory ran out. */
export interface CoreInstanceExports {
  memory?: { buffer: ArrayBuffer; grow(pages: number): number };
  /** The `toolhost_memory_exhausted` global of a memory-routed module (guest-memory.ts). */
  exhausted?: { value: number };
}

/** Below the cap by at most this share of it (or 2 MiB), a failed call is taken for one that ran out of memory. */
const NEAR_CAP_FRACTION = 1 / 16;
const NEAR_CAP_MINIMUM_BYTES = 2 * 1024 * 1024;

/**
 * The memory cap the guest exhausted, in bytes, or undefined when its memory did not run out: a
 * memory-routed module says so itself (its grow was refused); any other module's memory ran out when
 * it cannot grow one more page, or when it ends so close to the cap that its last grow must have failed.
 */
export function exhaustedMemoryBytes(instances: readonly CoreInstanceExports[], limitBytes: number | undefined): number | undefined {
  for (const instance of instances) {
    if (instance.memory === undefined) continue;
    const size = instance.memory.buffer.byteLength;
    if (instance.exhausted !== undefined) {
      if (instance.exhausted.value !== 0) return limitBytes ?? size;
      continue;
    }
    if (limitBytes !== undefined && size >= limitBytes - Math.max(limitBytes * NEAR_CAP_FRACTION, NEAR_CAP_MINIMUM_BYTES)) return limitBytes;
    try {
      instance.memory.grow(1);
    } catch {
      return limitBytes ?? size;
    }
  }
  return undefined;
}

