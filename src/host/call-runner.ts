/**
 * The host's call path, one pass per step: look the tool up, admit the call (approval, then quota),
 * give it its time budget, run it through the bridge with the host's context, and report it (log,
 * network refusals, `call_finished`). Every call that finds its tool gets ONE info-level log line,
 * `tool call` with `{tool, callId, status: ok|error|refused, duration_ms, reason?}`: never its
 * arguments or its result, which may hold secrets or private data. Every edge (HTTP, MCP, CLI) and every nested call from a tool
 * (`run_code`'s `tools.x()`) goes through `run`, so none of them can skip a step. With an audit log
 * (config `audit`, src/audit/), `run` hands each call to it, which records the call once it has its
 * result; a nested call carries its parent's principal and transport and the parent's call id.
 *
 * Identity mode: a call whose `principal` the host's principal policy restricts (src/identity/policy.ts)
 * sees the tools through the principal's grant (lookup, the tool's `listTools`, the bridge's permission
 * level), is admitted by the principal's own approval rules and quotas too, can be approved through the
 * caller's own approver only when the principal is an approver, and nested calls carry the principal.
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalGate } from '../approvals/index.ts';
import { callTool } from '../bridge/call-tool.ts';
import { WAITING_FOR_APPROVAL, WAITING_FOR_QUOTA } from '../call-events.ts';
import { createCallSignal } from '../call-signal.ts';
import type { CallToolOptions, HostEvent } from '../host-types.ts';
import type { Logger } from '../logger.ts';
import type { QuotaGate } from '../quotas/index.ts';
import type { ToolLookup, ToolRegistry } from '../registry.ts';
import { errorResult, type ToolResult } from '../result.ts';
import type { SecretsResolver } from '../secrets.ts';
import type { CommandSandboxSettings } from '../command-sandbox.ts';
import type { AnyTool } from '../tool.ts';
import type { NetworkDenial } from '../wasm/result-mapping.ts';
import type { HostResources } from './resources.ts';
import type { HostAuditor } from '../audit/types.ts';
import type { PrincipalPolicy } from '../identity/policy.ts';
import { lookupForGrant, toolsForGrant } from '../identity/visibility.ts';
import { SPAN_APPROVAL_WAIT, SPAN_QUOTA_WAIT } from '../telemetry/attributes.ts';
import type { TraceSpan } from '../telemetry/span.ts';
import { endAdmitSpan, endToolCallSpan, startAdmitSpan, startToolCallSpan, WaitSpan } from '../telemetry/tool-call-span.ts';

export interface CallRunnerOptions {
  workspaceRoot: string;
  registry: ToolRegistry;
  lookupTool: (name: string) => ToolLookup;
  approvals: ApprovalGate;
  quotas: QuotaGate;
  secrets: SecretsResolver;
  resources: HostResources;
  emit: (event: HostEvent) => void;
  logger: Logger;
  /** A call's budget when neither the caller nor the tool names one. */
  defaultTimeoutMs: number;
  /** Aborted when the host gives up waiting for calls at shutdown: every running call stops. */
  shutdownSignal: AbortSignal;
  /** Handed to every call as `ToolContext.sandbox`. */
  sandbox: CommandSandboxSettings;
  /** The audit log, when configured: every call (nested ones too) is recorded through it (src/audit/). */
  audit?: HostAuditor | undefined;
  /** Identity mode: the principal's grant narrows which tools a call may run and its permission level. */
  principalPolicy?: PrincipalPolicy;
}

/** A call's outcome in its log line: ran and succeeded, ran and returned is_error, or refused before it ran (approval, quota). */
export type CallLogStatus = 'ok' | 'error' | 'refused';

/** What admission hands the execute pass: a slot to give back when the call ends. */
type Admission = { ok: true; release(): void } | { ok: false; result: ToolResult };

/** `{subject}` of the call's principal for its events (identity mode), else nothing. */
function subjectOf(callOptions: CallToolOptions): { subject?: string } {
  return callOptions.principal === undefined ? {} : { subject: callOptions.principal.subject };
}

/** Milliseconds since `start` (a performance.now() reading), to the microsecond. */
function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 1000) / 1000;
}

/** The refusals a wasm call's `metadata.network` lists (see result-mapping's `summarizeNetwork`). */
function networkDenials(result: ToolResult): NetworkDenial[] {
  const network = result.metadata?.['network'];
  if (typeof network !== 'object' || network === null || !('denials' in network) || !Array.isArray(network.denials)) return [];
  return network.denials as NetworkDenial[];
}

/** What a nested call keeps of its parent's options: who made it and through which edge, and the parent's call id. */
function nestedCallOptions(parent: CallToolOptions, parentCallId: string): CallToolOptions {
  return { parentCallId, ...(parent.principal !== undefined ? { principal: parent.principal } : {}), ...(parent.transport !== undefined ? { transport: parent.transport } : {}) };
}

export class CallRunner {
  constructor(private readonly options: CallRunnerOptions) {}

  /**
   * One call, start to end. `parentDeadline`: a nested call (ToolContext.callTool) ends by its
   * caller's deadline at the latest.
   */
  run(name: string, args: unknown, callOptions: CallToolOptions, parentDeadline?: number): Promise<ToolResult> {
    const { audit } = this.options;
    if (audit !== undefined) return audit.around(name, args, callOptions, (audited) => this.runCall(name, args, audited, parentDeadline));
    return this.runCall(name, args, callOptions, parentDeadline);
  }

  private async runCall(name: string, args: unknown, callOptions: CallToolOptions, parentDeadline?: number): Promise<ToolResult> {
    const grant = this.options.principalPolicy?.grantFor(callOptions.principal);
    const found = callOptions.lookedUp !== undefined ? { found: true as const, tool: callOptions.lookedUp } : this.options.lookupTool(name);
    // The principal's grant (identity mode) applies to a tool the edge looked up too: no edge can skip it.
    const lookup = grant === undefined || callOptions.principal === undefined ? found : lookupForGrant(found, grant, callOptions.principal.subject);
    if (!lookup.found) {
      const details = lookup.reason === 'load_failed' ? { file: lookup.file, load_error: lookup.error } : {};
      const reason = grant !== undefined && !grant.allowed ? 'principal_denied' : lookup.reason;
      return errorResult(lookup.message, { reason, ...details });
    }
    const tool = lookup.tool;
    const callId = callOptions.callId ?? randomUUID();
    // Tracing (src/telemetry/): only when the edge passed a span; otherwise this check is all it costs.
    const span = callOptions.trace === undefined ? undefined : startToolCallSpan(callOptions.trace, tool, name, callId, callOptions);
    let result: ToolResult | undefined;
    try {
      const admission = await this.admit(tool, name, args, callId, callOptions, this.budgetMs(tool, callOptions, parentDeadline), span);
      if (!admission.ok) return (result = admission.result);
      const started = performance.now();
      try {
        result = await this.execute(tool, name, args, callId, callOptions, parentDeadline, span);
      } finally {
        admission.release();
      }
      this.report(name, callId, result, elapsedMs(started), subjectOf(callOptions));
      return result;
    } finally {
      if (span !== undefined) endToolCallSpan(span, result);
    }
  }

  /** A throw that escaped the bridge is a host bug: log it whole, answer the caller with a result. */
  internalErrorResult(name: string, error: unknown): ToolResult {
    this.options.logger.error({ tool: name, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, 'internal error while calling a tool');
    return errorResult(`Internal error in the tool host while calling "${name}"; the call did not complete. The host keeps running; see its log.`, { reason: 'internal_error' });
  }

  /**
   * Approval, then quota (a denied call uses none). Both come before the deadline starts: time spent
   * waiting for a person or a slot is not the tool's time. A refusal is reported as a finished call.
   * `budgetMs` (the call's time budget) tells the quota when the slot will be free at the latest.
   */
  private async admit(tool: AnyTool, name: string, args: unknown, callId: string, callOptions: CallToolOptions, budgetMs: number, span: TraceSpan | undefined): Promise<Admission> {
    const asked = performance.now();
    // A listener hears about the waits: an approval waiting for a person, a call waiting for a quota slot.
    const progress = callOptions.events?.progress;
    const waiting = (message: string) => (progress === undefined ? undefined : () => progress({ progress: 0, message }));
    // In identity mode only an approver may answer its own call's approval (MCP elicitation); anyone
    // else's call waits for an approver on /v1/approvals.
    const principal = callOptions.principal;
    const grant = this.options.principalPolicy?.grantFor(principal);
    const approve = grant !== undefined && !grant.approver ? undefined : callOptions.approve;
    const admitSpan = span === undefined ? undefined : startAdmitSpan(span);
    const approvalWait = admitSpan === undefined ? undefined : new WaitSpan(admitSpan, SPAN_APPROVAL_WAIT);
    let refusal: ToolResult | undefined;
    try {
      refusal = await this.options.approvals.check(tool, args, {
        callId,
        signal: callOptions.signal,
        approve,
        requestedBy: principal?.subject,
        rules: grant?.approvalRules,
        onWait: approvalWait === undefined ? waiting(WAITING_FOR_APPROVAL) : approvalWait.onWait(waiting(WAITING_FOR_APPROVAL)),
      });
    } finally {
      approvalWait?.end();
    }
    let admission: Admission;
    if (refusal !== undefined) admission = { ok: false, result: refusal };
    else {
      const quotaWait = admitSpan === undefined ? undefined : new WaitSpan(admitSpan, SPAN_QUOTA_WAIT);
      const onQuotaWait = quotaWait === undefined ? waiting(WAITING_FOR_QUOTA) : quotaWait.onWait(waiting(WAITING_FOR_QUOTA));
      try {
        admission = await this.options.quotas.admit(name, callOptions.signal, budgetMs, onQuotaWait);
        // Identity mode: the principal's own quotas (its `principals` rule), on top of the host's.
        if (admission.ok && grant?.quotas !== undefined) {
          const hostSlot = admission;
          const own = await grant.quotas.admit(name, callOptions.signal, budgetMs, onQuotaWait);
          if (own.ok) {
            admission = {
              ok: true,
              release() {
                own.release();
                hostSlot.release();
              },
            };
          } else {
            hostSlot.release();
            admission = own;
          }
        }
      } finally {
        quotaWait?.end();
      }
    }
    if (admitSpan !== undefined) endAdmitSpan(admitSpan, admission.ok ? undefined : admission.result);
    if (!admission.ok) {
      const durationMs = elapsedMs(asked);
      this.logCall(name, callId, 'refused', durationMs, admission.result);
      this.options.emit({ type: 'call_finished', tool: name, call_id: callId, duration_ms: durationMs, is_error: true, ...subjectOf(callOptions) });
    }
    return admission;
  }

  /** The call's budget: the caller's, else the tool's, else the host's; never past a parent call's deadline. */
  private budgetMs(tool: AnyTool, callOptions: CallToolOptions, parentDeadline: number | undefined): number {
    const ownTimeoutMs = callOptions.timeoutMs ?? tool.timeoutMs ?? this.options.defaultTimeoutMs;
    return parentDeadline === undefined ? ownTimeoutMs : Math.max(1, Math.min(ownTimeoutMs, parentDeadline - Date.now()));
  }

  /** Runs the tool through the bridge under its own signal (deadline, host shutdown, the caller's cancel). */
  private async execute(tool: AnyTool, name: string, args: unknown, callId: string, callOptions: CallToolOptions, parentDeadline: number | undefined, span: TraceSpan | undefined): Promise<ToolResult> {
    const { workspaceRoot, registry, secrets, resources, logger, shutdownSignal, sandbox } = this.options;
    const grant = this.options.principalPolicy?.grantFor(callOptions.principal);
    const timeoutMs = this.budgetMs(tool, callOptions, parentDeadline);
    const callSignal = createCallSignal(timeoutMs, [shutdownSignal, callOptions.signal]);
    const deadline = Date.now() + timeoutMs;
    try {
      return await callTool(tool, args, {
        workspaceRoot,
        permissionMode: grant?.permissionMode ?? registry.permissionMode,
        callId,
        signal: callSignal.signal,
        deadline,
        logger: logger.child({ tool: name, callId }),
        secrets,
        listTools: () => toolsForGrant(registry.list(), grant),
        hostResource: (key) => resources.get(key),
        sandbox,
        ...(callOptions.events === undefined ? {} : { events: callOptions.events }),
        ...(span === undefined ? {} : { trace: span }),
        // A nested call (run_code's `tools.x()`) takes the same path as any other: approvals, permission
        // mode, policy, its own timeout; it stops with this call and gets at most the time this call has left.
        callTool: (innerName, innerArgs) =>
          this.run(innerName, innerArgs, { signal: callSignal.signal, ...(callOptions.approve ? { approve: callOptions.approve } : {}), ...nestedCallOptions(callOptions, callId), ...(span === undefined ? {} : { trace: span }) }, deadline).catch((error: unknown) =>
            this.internalErrorResult(innerName, error),
          ),
      });
    } finally {
      callSignal.dispose();
    }
  }

  /**
   * The call's one info-level line: tool, call id, status, duration and, for a failed or refused call,
   * the result's `metadata.reason` (a fixed code such as `approval_denied`). Never arguments or content.
   */
  private logCall(name: string, callId: string, status: CallLogStatus, durationMs: number, result: ToolResult): void {
    const reason = result.metadata?.['reason'];
    this.options.logger.info(
      { tool: name, callId, status, duration_ms: Math.round(durationMs * 10) / 10, ...(status !== 'ok' && typeof reason === 'string' ? { reason: reason.slice(0, 64) } : {}) },
      'tool call',
    );
  }

  /** The call's log line, one warning and event per refused network request, and `call_finished`. */
  private report(name: string, callId: string, result: ToolResult, durationMs: number, subject: { subject?: string }): void {
    const { logger, emit } = this.options;
    this.logCall(name, callId, result.is_error ? 'error' : 'ok', durationMs, result);
    for (const denial of networkDenials(result)) {
      logger.warn({ tool: name, callId, ...denial }, 'network request denied by policy');
      emit({ type: 'network_denied', tool: name, call_id: callId, ...denial, ...subject });
    }
    emit({ type: 'call_finished', tool: name, call_id: callId, duration_ms: durationMs, is_error: result.is_error, ...subject });
  }
}
