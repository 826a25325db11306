/**
 * Byte counts for people and models to read, in 1024 steps with one decimal. One function serves the
 * two audiences, which spell the units differently: tool results speak to a model in words it reads
 * plainly ("512 bytes", "1.5 KB"), the CLI prints IEC units ("512 B", "1.5 KiB"). No imports, so the
 * built-ins can use it without loading anything past the tool contract.
 */

/** How the units are spelled: `words` for tool results, `iec` for the CLI. */
export type ByteUnitStyle = 'words' | 'iec';

const LARGER_UNITS: Record<ByteUnitStyle, readonly [string, string, string]> = {
  words: ['KB', 'MB', 'GB'],
  iec: ['KiB', 'MiB', 'GiB'],
};

/** "512 bytes", "1.5 KB", "12.0 MB" (`words`); "512 B", "1.5 KiB", "12.0 MiB" (`iec`). */
export function formatBytes(bytes: number, style: ByteUnitStyle = 'words'): string {
  if (bytes < 1024) {
    if (style === 'iec') return `${bytes} B`;
    return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  }
  const units = LARGER_UNITS[style];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
