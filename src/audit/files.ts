/**
 * Where an audit log lives on disk: the current file `<path>`, its rotated files `<path>.1`,
 * `<path>.2`, … (the higher the number, the newer), the head file `<path>.head` (the last record
 * written: see head-file.ts) and the lock file `<path>.lock` (the pid of the one writer).
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function headFileOf(path: string): string {
  return `${path}.head`;
}

export function lockFileOf(path: string): string {
  return `${path}.lock`;
}

export interface RotatedFile {
  number: number;
  file: string;
}

/** The rotated files of `path`, oldest first. */
export function rotatedFiles(path: string): RotatedFile[] {
  const folder = dirname(path);
  const stem = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const found: RotatedFile[] = [];
  for (const name of names) {
    if (!name.startsWith(stem)) continue;
    const suffix = name.slice(stem.length);
    if (!/^[1-9][0-9]{0,9}$/.test(suffix)) continue;
    found.push({ number: Number(suffix), file: join(folder, name) });
  }
  return found.sort((a, b) => a.number - b.number);
}

/** Every file of the chain, oldest first: the rotated ones, then the current one. */
export function chainFiles(path: string): string[] {
  return [...rotatedFiles(path).map((entry) => entry.file), path];
}
