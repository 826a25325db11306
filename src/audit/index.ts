/**
 * The audit log (config key `audit`): imported by the composition root only when the config has it.
 * `openHostAudit` opens the default sink (the JSON Lines file, file-sink.ts) and returns the host's
 * auditor (host-audit.ts). `toolhost audit verify|tail|query` reads the same files (verify.ts, query.ts).
 */
import { hostname } from 'node:os';
import type { Logger } from '../logger.ts';
import { packageVersion } from '../package-root.ts';
import { type ResolvedAuditConfig } from './config.ts';
import { FileAuditSink } from './file-sink.ts';
import { HostAudit } from './host-audit.ts';
import type { HostAuditor } from './types.ts';

export { auditConfigSchema, resolveAuditConfig, type AuditConfig, type ResolvedAuditConfig } from './config.ts';
export type { AuditSink, AuditFields } from './sink.ts';
export type { HostAuditor } from './types.ts';
export { HostAudit } from './host-audit.ts';
export { FileAuditSink } from './file-sink.ts';

/** @throws ToolHostError('AUDIT_LOG_IN_USE' | 'AUDIT_LOG_DAMAGED' | 'AUDIT_LOG_FAILED') */
export async function openHostAudit(config: ResolvedAuditConfig, logger: Logger): Promise<HostAuditor> {
  const sink = await FileAuditSink.open({
    path: config.path,
    fsync: config.fsync,
    maxBytes: config.maxBytes,
    logger,
    started: { type: 'audit', event: 'started', pid: process.pid, hostname: hostname(), toolhost_version: packageVersion(), fsync: config.fsync, max_bytes: config.maxBytes },
  });
  return new HostAudit(sink);
}
