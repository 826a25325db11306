/**
 * Where audit records go. The host hands each record to a sink in the order things happened; the
 * sink chains and stores them. The JSON Lines file (file-sink.ts) is the default and only one so far;
 * another (a log service, a database) implements the same interface and keeps the same chain.
 */
import type { AuditFsyncPolicy } from './config.ts';

/** A record before the chain adds `seq`, `prev` and `hash`: JSON-safe fields, `type` first. */
export type AuditFields = { type: string } & Record<string, unknown>;

export interface AuditSink {
  /**
   * Chains and writes one record. Resolves once it is as durable as the sink's policy promises
   * (`always`: on disk); never rejects: a failure is logged and turns `writable` false.
   */
  append(fields: AuditFields): Promise<void>;
  /** False once a record could not be written: the host then refuses calls it could not record. */
  readonly writable: boolean;
  readonly fsync: AuditFsyncPolicy;
  /** Writes what is pending, makes it durable, releases the log. */
  close(): Promise<void>;
}
