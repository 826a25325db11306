/**
 * The records a host writes to its audit sink, and when (src/audit/README.md lists every field):
 *
 * - `call`: every call through the host's call path (any edge, nested `run_code` calls too), once it
 *   has its result: principal, transport, tool and its digest, the arguments with secrets redacted,
 *   the approval (a person's decision and who decided, or the rule that denied it), the quota outcome,
 *   the status and reason, the duration.
 * - `approval`: every end of a pending approval (a person's decision, a timeout, a cancellation),
 *   with who asked and who decided.
 * - `tool`: tool set changes after start-up (hot reload added / updated / removed a tool, a file
 *   failed to load, a name collision), with the tool's digest.
 * - `audit`: the log's own life (`started`, `repaired`, `stopped`), written by the sink's owner.
 *
 * Arguments: secrets are recognised by the tool's declared secret parameters (`secret_params`), as
 * in approval lists and the call history: a `<secret_ref:NAME>` placeholder is kept (it names a
 * secret, it does not reveal it), any other value there is recorded as `[REDACTED]`; substituted
 * secret values never reach the record, which is built from what the caller sent. A call to a tool
 * that is not found records no arguments (its secret parameters are unknown), only their sha256.
 * Arguments whose JSON exceeds MAX_AUDIT_ARGUMENTS_CHARS are recorded by size and sha256.
 */
import { randomUUID } from 'node:crypto';
import { redactArguments } from '../approvals/redact.ts';
import type { ApprovalEvent } from '../approvals/types.ts';
import type { CallToolOptions, HostEvent } from '../host-types.ts';
import type { Principal } from '../identity/principal.ts';
import { ADMIN_TOKEN_PRINCIPAL } from '../identity/request-principal.ts';
import { packageVersion } from '../package-root.ts';
import { errorResult, type ToolResult } from '../result.ts';
import type { AnyTool } from '../tool.ts';
import { sha256Hex } from './chain.ts';
import type { AuditFields, AuditSink } from './sink.ts';
import type { AuditEventSource, HostAuditor } from './types.ts';

export const MAX_AUDIT_ARGUMENTS_CHARS = 16 * 1024;
const MAX_REASON_CHARS = 64;
const MAX_ERROR_CHARS = 500;

/** Result reasons that mean the call did not run: not found, approval, quota, the audit log itself. */
const REFUSED_REASONS = new Set(['unknown', 'excluded', 'permission', 'load_failed', 'loading', 'approval_denied', 'approval_timeout', 'approval_unavailable', 'quota_exceeded', 'audit_unavailable']);
const NOT_REACHING_QUOTA = new Set(['unknown', 'excluded', 'permission', 'load_failed', 'loading', 'approval_denied', 'approval_timeout', 'approval_unavailable', 'audit_unavailable']);

export interface AuditPrincipal {
  sub: string;
  client_id: string | null;
  kind: string;
}

interface PendingCall {
  principal: AuditPrincipal | null;
  approval: Record<string, unknown> | null;
}

export function auditPrincipal(principal: Principal | undefined): AuditPrincipal | null {
  if (principal === undefined) return null;
  return { sub: principal.subject, client_id: principal.clientId ?? null, kind: principal.kind };
}

/** `sha256:<hex>` of a wasm tool's component, `builtin:<name>@<toolhost version>` of a built-in, null when unknown. */
export function toolDigest(tool: AnyTool | undefined): string | null {
  if (tool === undefined) return null;
  const sha256 = tool.details?.['sha256'];
  if (typeof sha256 === 'string') return `sha256:${sha256}`;
  return tool.source === 'builtin' ? `builtin:${tool.name}@${packageVersion()}` : null;
}

/** The arguments as recorded (see the module comment). */
export function auditArguments(tool: AnyTool | undefined, args: unknown): Record<string, unknown> {
  let value: unknown = args ?? {};
  if (typeof value === 'string') {
    try {
      value = value.trim() === '' ? {} : (JSON.parse(value) as unknown);
    } catch {
      // recorded as the text it is (by size and hash below when the tool is unknown)
    }
  }
  let shown: unknown = value;
  if (tool === undefined) shown = undefined;
  else if (typeof value === 'object' && value !== null && !Array.isArray(value)) shown = redactArguments(value as Record<string, unknown>, tool.secretParams);
  else if (tool.secretParams.length > 0) shown = undefined;
  const text = JSON.stringify(shown === undefined ? value : shown) ?? 'null';
  if (shown === undefined || text.length > MAX_AUDIT_ARGUMENTS_CHARS) return { arguments: null, arguments_chars: text.length, arguments_sha256: sha256Hex(text) };
  return { arguments: shown };
}

/** Who decided an approval with the admin token. */
const ADMIN_TOKEN_DECIDER = ADMIN_TOKEN_PRINCIPAL.subject;

/**
 * The decider of an approval: the event's `decided_by` (an approver's subject in identity mode, or
 * `admin-token`, src/identity/approver-guard.ts) when it carries one; else what the channel tells.
 */
function deciderOf(event: Extract<ApprovalEvent, { type: 'approval_decided' }>, requester: AuditPrincipal | null): AuditPrincipal | { sub: string; client_id: null; kind: string } | null {
  const given = event.decided_by;
  if (given !== undefined && given !== '') return { sub: given, client_id: null, kind: given === ADMIN_TOKEN_DECIDER ? 'static-token' : 'token' };
  if (event.reason !== 'user') return null;
  if (event.via === 'http') return { sub: ADMIN_TOKEN_DECIDER, client_id: null, kind: 'static-token' };
  if (event.via === 'prompt') return { sub: requester?.sub ?? 'caller', client_id: requester?.client_id ?? null, kind: 'prompt' };
  return null;
}

function reasonOf(result: ToolResult): string | null {
  const reason = result.metadata?.['reason'];
  return typeof reason === 'string' ? reason.slice(0, MAX_REASON_CHARS) : null;
}

function quotaOf(result: ToolResult, reason: string | null, approval: Record<string, unknown> | null): Record<string, unknown> {
  if (reason === 'quota_exceeded') return { outcome: 'refused', quota: result.metadata?.['quota'] ?? null, limit: result.metadata?.['limit'] ?? null };
  if ((reason !== null && NOT_REACHING_QUOTA.has(reason)) || (reason === 'cancelled' && approval !== null && approval['decision'] === 'deny')) return { outcome: 'not_reached' };
  return { outcome: 'admitted' };
}

export class HostAudit implements HostAuditor {
  private readonly pending = new Map<string, PendingCall>();
  private source: AuditEventSource | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly sink: AuditSink) {}

  attach(source: AuditEventSource): void {
    this.source = source;
    this.unsubscribe = source.subscribe((event) => this.onEvent(event));
  }

  async around(name: string, args: unknown, options: CallToolOptions, run: (options: CallToolOptions) => Promise<ToolResult>): Promise<ToolResult> {
    const callId = options.callId ?? randomUUID();
    const principal = auditPrincipal(options.principal);
    const started = performance.now();
    if (!this.sink.writable) {
      const refused = errorResult('The host cannot write its audit log, so it refuses calls it could not record. The operator must fix the audit log (see the daemon log) and restart.', { reason: 'audit_unavailable' });
      await this.recordCall(name, args, options, callId, principal, null, refused, started);
      return refused;
    }
    const entry: PendingCall = { principal, approval: null };
    this.pending.set(callId, entry);
    let result: ToolResult;
    try {
      result = await run({ ...options, callId });
    } catch (error) {
      this.pending.delete(callId);
      await this.recordCall(name, args, options, callId, principal, entry.approval, errorResult('internal error', { reason: 'internal_error' }), started);
      throw error;
    }
    this.pending.delete(callId);
    await this.recordCall(name, args, options, callId, principal, entry.approval, result, started);
    return result;
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await this.sink.close();
  }

  private recordCall(name: string, args: unknown, options: CallToolOptions, callId: string, principal: AuditPrincipal | null, asked: Record<string, unknown> | null, result: ToolResult, started: number): Promise<void> {
    const tool = options.lookedUp ?? this.lookup(name);
    const reason = reasonOf(result);
    const ruleDenied = reason === 'approval_denied' && asked === null && typeof result.metadata?.['rule'] === 'number';
    const approval = ruleDenied ? { decision: 'deny', reason: 'rule', rule: result.metadata?.['rule'] } : asked;
    const status = !result.is_error ? 'ok' : reason !== null && REFUSED_REASONS.has(reason) ? 'refused' : 'error';
    const fields: AuditFields = {
      type: 'call',
      call_id: callId,
      ...(options.parentCallId !== undefined ? { parent_call_id: options.parentCallId } : {}),
      principal,
      transport: options.transport ?? null,
      tool: name,
      tool_digest: toolDigest(tool),
      ...auditArguments(tool, args),
      approval,
      quota: quotaOf(result, reason, approval),
      status,
      reason: result.is_error ? reason : null,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    };
    return this.sink.append(fields);
  }

  private lookup(name: string): AnyTool | undefined {
    const found = this.source?.lookupTool(name);
    return found?.found === true ? found.tool : undefined;
  }

  private onEvent(event: HostEvent): void {
    switch (event.type) {
      case 'approval_decided': {
        const entry = this.pending.get(event.call_id);
        const requester = entry?.principal ?? null;
        const decided = { approval_id: event.id, decision: event.decision, reason: event.reason, via: event.via ?? null, decided_by: deciderOf(event, requester) };
        if (entry !== undefined) entry.approval = decided;
        void this.sink.append({ type: 'approval', ...decided, call_id: event.call_id, tool: event.tool, requested_by: requester });
        return;
      }
      case 'added':
      case 'updated':
      case 'removed':
        void this.sink.append({
          type: 'tool',
          event: event.type,
          tool: event.name,
          source: event.source,
          file: event.file ?? null,
          tool_digest: event.type === 'removed' ? null : toolDigest(this.lookup(event.name)),
        });
        return;
      case 'load_failed':
        void this.sink.append({ type: 'tool', event: 'load_failed', file: event.file, error: event.error.slice(0, MAX_ERROR_CHARS), code: event.code ?? null });
        return;
      case 'collision':
        void this.sink.append({ type: 'tool', event: 'collision', tool: event.name, kept: event.kept, rejected: event.rejected, reason: event.reason.slice(0, MAX_ERROR_CHARS), file: event.file ?? null });
        return;
      default:
        return;
    }
  }
}
