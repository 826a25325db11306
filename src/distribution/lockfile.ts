/**
 * `toolhost.lock` (JSON; the current directory unless `--lock FILE`): what `toolhost add|update`
 * installed, so `toolhost sync` can make an extensions folder hold exactly those bytes.
 *
 * ```json
 * { "lockfileVersion": 1,
 *   "tools": { "greet": {
 *     "reference": "oci://127.0.0.1:5000/tools/greet:1.0",
 *     "digest": "sha256:…",            // the manifest (https: the component itself)
 *     "signer": "…" | null,            // the trust layer's signer id; null when installed unsigned
 *     "policy_digest": "sha256:…" | null,
 *     "verified_at": "2026-11-29T10:00:00.000Z",
 *     "files": { "greet.wasm": "sha256:…", "greet.policy.json": "sha256:…" } } } }
 * ```
 * Keys are written sorted, so the file diffs cleanly; writes go through a temporary file and a rename.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

export const LOCKFILE_NAME = 'toolhost.lock';
const MAX_LOCKFILE_BYTES = 16 * 1024 * 1024;

const digest = z.string().regex(/^sha256:[a-f0-9]{64}$/);

export const lockedToolSchema = z
  .object({
    reference: z.string().min(1).max(2048),
    digest,
    signer: z.string().nullable(),
    policy_digest: digest.nullable(),
    verified_at: z.string(),
    files: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/), digest),
  })
  .strict();

export const lockfileSchema = z
  .object({
    lockfileVersion: z.literal(1),
    tools: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/), lockedToolSchema),
  })
  .strict();

export type LockedTool = z.infer<typeof lockedToolSchema>;
export type Lockfile = z.infer<typeof lockfileSchema>;

export class LockfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockfileError';
  }
}

/** The lockfile at `path`; an empty one when the file does not exist. */
export function readLockfile(path: string): Lockfile {
  if (!existsSync(path)) return { lockfileVersion: 1, tools: {} };
  const bytes = readFileSync(path);
  if (bytes.length > MAX_LOCKFILE_BYTES) throw new LockfileError(`${path} is larger than ${MAX_LOCKFILE_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new LockfileError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = lockfileSchema.safeParse(value);
  if (!parsed.success) {
    throw new LockfileError(`${path} is not a toolhost lockfile: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
  }
  return parsed.data;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, entry]) => [key, sorted(entry)]));
  }
  return value;
}

export function writeLockfile(path: string, lockfile: Lockfile): void {
  const text = `${JSON.stringify({ lockfileVersion: 1, tools: sorted(lockfile.tools) }, null, 2)}\n`;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
