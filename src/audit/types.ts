/**
 * What the host sees of the audit log (type-only: the host imports no audit code). The composition
 * root opens one when the config has `audit` (src/audit/index.ts); the call path runs every call
 * through `around`, and the host attaches its event stream (approval decisions, tool set changes).
 */
import type { CallToolOptions, HostEvent } from '../host-types.ts';
import type { ToolLookup } from '../registry.ts';
import type { ToolResult } from '../result.ts';

export interface AuditEventSource {
  subscribe(listener: (event: HostEvent) => void): () => void;
  lookupTool(name: string): ToolLookup;
}

export interface HostAuditor {
  /** Called once by createHost once its built-ins are registered: records later events. */
  attach(source: AuditEventSource): void;
  /**
   * Runs one call (`run`, given the options with a call id set) and records it before its result is
   * returned (under `fsync: always`, once the record is on disk). When the log cannot be written the
   * call is refused unrun (`metadata.reason: audit_unavailable`).
   */
  around(name: string, args: unknown, options: CallToolOptions, run: (options: CallToolOptions) => Promise<ToolResult>): Promise<ToolResult>;
  /** Writes the `stopped` record and releases the log (after the host's calls have ended). */
  close(): Promise<void>;
}
