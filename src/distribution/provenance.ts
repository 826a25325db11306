/**
 * Where an installed tool came from, by the lockfile: the reference, digest, signer and when it was
 * verified — or that the file did not come through the lock (`unlocked`: dropped in by hand), or
 * that it changed since (`modified`: its bytes are not the locked ones). What `inspect` shows.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { readLockfile } from './lockfile.ts';

export type Provenance =
  | { status: 'locked'; lockfile: string; reference: string; digest: string; signer: string | null; verified_at: string }
  | { status: 'modified'; lockfile: string; reference: string; digest: string; signer: string | null; verified_at: string; expected: string; found: string }
  | { status: 'unlocked'; lockfile: string; reason: string };

/** The provenance of `file` (a `.wasm` in an extensions folder) according to the lockfile at `lockPath`. */
export function provenanceOf(file: string, lockPath: string): Provenance {
  if (!existsSync(lockPath)) return { status: 'unlocked', lockfile: lockPath, reason: `no lockfile at ${lockPath}` };
  let lock;
  try {
    lock = readLockfile(lockPath);
  } catch (error) {
    return { status: 'unlocked', lockfile: lockPath, reason: (error as Error).message };
  }
  const name = basename(file);
  const entry = Object.values(lock.tools).find((candidate) => candidate.files[name] !== undefined);
  if (entry === undefined) return { status: 'unlocked', lockfile: lockPath, reason: `${name} is not in the lock (not installed by toolhost add)` };
  const base = { lockfile: lockPath, reference: entry.reference, digest: entry.digest, signer: entry.signer, verified_at: entry.verified_at };
  const expected = entry.files[name]!;
  const found = `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  return found === expected ? { status: 'locked', ...base } : { status: 'modified', ...base, expected, found };
}

/** One line for a terminal. */
export function describeProvenance(provenance: Provenance): string {
  if (provenance.status === 'unlocked') return `local file: ${provenance.reason}`;
  const signer = provenance.signer === null ? 'UNSIGNED' : `signed by ${provenance.signer}`;
  const origin = `${provenance.reference} @ ${provenance.digest}, ${signer}, verified ${provenance.verified_at}`;
  return provenance.status === 'locked' ? origin : `MODIFIED since install (${provenance.found}, the lock says ${provenance.expected}); from ${origin}`;
}
