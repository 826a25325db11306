/**
 * Config key `audit`: the tamper-evident audit log of the daemon (src/audit/README.md).
 * `{"path": FILE, "fsync"?: "always"|"batch"|"never", "max_bytes"?: N}`, unknown fields rejected.
 * `path` is relative to the config file's folder; absent `audit` = no audit log (nothing is loaded).
 */
import { z } from 'zod';

export const AUDIT_FSYNC_POLICIES = ['always', 'batch', 'never'] as const;
export type AuditFsyncPolicy = (typeof AUDIT_FSYNC_POLICIES)[number];

/** Default fsync policy: group commits every BATCH_FSYNC_MS or BATCH_FSYNC_RECORDS records. */
export const DEFAULT_AUDIT_FSYNC: AuditFsyncPolicy = 'batch';
/** Default size at which the file is rotated (100 MiB). */
export const DEFAULT_AUDIT_MAX_BYTES = 100 * 1024 * 1024;
/** Smallest `max_bytes` accepted: a record must fit in a file. */
export const MIN_AUDIT_MAX_BYTES = 1024;

export const auditConfigSchema = z
  .object({
    /** The JSON Lines file; rotated files are `<path>.1`, `<path>.2`, … (oldest first). */
    path: z.string().min(1),
    /** `always`: every record is on disk before the call's answer; `batch`: every 200 ms / 100 records; `never`: the OS decides. */
    fsync: z.enum(AUDIT_FSYNC_POLICIES).optional(),
    /** Rotate once the file would grow past this many bytes (default 100 MiB). */
    max_bytes: z.number().int().min(MIN_AUDIT_MAX_BYTES).optional(),
  })
  .strict();

export type AuditConfig = z.infer<typeof auditConfigSchema>;

/** The settings a writer runs with (defaults applied, path absolute). */
export interface ResolvedAuditConfig {
  path: string;
  fsync: AuditFsyncPolicy;
  maxBytes: number;
}

export function resolveAuditConfig(config: AuditConfig): ResolvedAuditConfig {
  return { path: config.path, fsync: config.fsync ?? DEFAULT_AUDIT_FSYNC, maxBytes: config.max_bytes ?? DEFAULT_AUDIT_MAX_BYTES };
}
