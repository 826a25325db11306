/**
 * Where an installed tool came from, by the lockfile: the reference, digest, signer and when it was
 * verified — or that the file did not come through the lock (`unlocked`: dropped in by hand), or
 * that it changed since (`modified`: its bytes are not the locked ones). What `inspect` shows, and
 * (with the digest the load already computed, see provenanceFromLock) what the daemon's
 * `GET /v1/tools/{name}/inspect` and the console show.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type Lockfile, readLockfile } from './lockfile.ts';

export type Provenance =
  | { status: 'locked'; lockfile: string; reference: string; digest: string; signer: string | null; verified_at: string }
  | { status: 'modified'; lockfile: string; reference: string; digest: string; signer: string | null; verified_at: string; expected: string; found: string }
  | { status: 'unlocked'; lockfile: string; reason: string };

/** A lockfile as read: its contents, none at that path, or why it could not be read. */
export type LockfileState = { kind: 'read'; lock: Lockfile } | { kind: 'absent' } | { kind: 'invalid'; problem: string };

/** Reads the lockfile at `path` into a LockfileState (never throws for a missing or bad file). */
export function lockfileStateOf(path: string): LockfileState {
  if (!existsSync(path)) return { kind: 'absent' };
  try {
    return { kind: 'read', lock: readLockfile(path) };
  } catch (error) {
    return { kind: 'invalid', problem: (error as Error).message };
  }
}

/**
 * The provenance of the component file named `fileName` (a base name, e.g. `greet.wasm`) whose bytes
 * hash to `sha256` (hex, or `sha256:`-prefixed), by the lockfile `state`; `lockfile` is how the
 * answer names the lockfile (a path for the operator, a base name over HTTP).
 */
export function provenanceFromLock(fileName: string, sha256: string, state: LockfileState, lockfile: string): Provenance {
  if (state.kind === 'absent') return { status: 'unlocked', lockfile, reason: `no lockfile at ${lockfile}` };
  if (state.kind === 'invalid') return { status: 'unlocked', lockfile, reason: state.problem };
  const entry = Object.values(state.lock.tools).find((candidate) => Object.hasOwn(candidate.files, fileName));
  if (entry === undefined) return { status: 'unlocked', lockfile, reason: `${fileName} is not in the lock (not installed by toolhost add)` };
  const base = { lockfile, reference: entry.reference, digest: entry.digest, signer: entry.signer, verified_at: entry.verified_at };
  const expected = entry.files[fileName]!;
  const found = sha256.startsWith('sha256:') ? sha256 : `sha256:${sha256}`;
  return found === expected ? { status: 'locked', ...base } : { status: 'modified', ...base, expected, found };
}

/** The provenance of `file` (a `.wasm` in an extensions folder) according to the lockfile at `lockPath`. */
export function provenanceOf(file: string, lockPath: string): Provenance {
  const state = lockfileStateOf(lockPath);
  if (state.kind !== 'read') return provenanceFromLock(basename(file), '', state, lockPath);
  return provenanceFromLock(basename(file), createHash('sha256').update(readFileSync(file)).digest('hex'), state, lockPath);
}

/** One line for a terminal. */
export function describeProvenance(provenance: Provenance): string {
  if (provenance.status === 'unlocked') return `local file: ${provenance.reason}`;
  const signer = provenance.signer === null ? 'UNSIGNED' : `signed by ${provenance.signer}`;
  const origin = `${provenance.reference} @ ${provenance.digest}, ${signer}, verified ${provenance.verified_at}`;
  return provenance.status === 'locked' ? origin : `MODIFIED since install (${provenance.found}, the lock says ${provenance.expected}); from ${origin}`;
}
