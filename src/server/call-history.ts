/**
 * The daemon's call history: a bounded ring of the most recent calls (default 200) from every edge
 * of the daemon (HTTP, the console, `POST /v1/dispatch`, MCP), served by `GET /v1/calls` and
 * `GET /v1/calls/{call_id}` to the admin token only, so the console can open a call made before the
 * page loaded.
 *
 * What a record keeps, and what it never does:
 * - `arguments` as the caller sent them, with the tool's `secret_params` redacted exactly as approval
 *   lists and events redact them (`redactArguments`: a `<secret_ref:NAME>` placeholder stays, anything
 *   else there becomes `[REDACTED]`). Results are kept as the caller got them (the bridge already
 *   replaced substituted secret values), except that a literal value sent in a secret parameter is
 *   replaced wherever the result repeats it.
 * - Sizes are capped (`MAX_RECORD_TEXT_CHARS` for the arguments' JSON, the content and the metadata's
 *   JSON each), so 200 records stay small whatever tools return.
 * - `refusal`: why the call did not run (`lookup`, `policy`, `validation`, `approval`, `quota`), from
 *   the result's `metadata.reason` or, for invalid arguments, by validating them again (only for an
 *   error result without a reason: successful calls cost nothing extra).
 * - `approval`: who decided an `ask` (from the host's `approval_requested` / `approval_decided` events,
 *   matched by call id; the recorder hands every call its id so they match).
 */
import { randomUUID } from 'node:crypto';
import { redactArguments } from '../approvals/index.ts';
import type { ApprovalChannel, ApprovalDecision, ApprovalEndReason } from '../approvals/index.ts';
import { parseRawArguments, validateArguments } from '../bridge/call-tool.ts';
import type { CallTransport, Host, HostEvent } from '../host-types.ts';
import type { ToolResult } from '../result.ts';
import { findSecretRefs, redactSecrets } from '../secrets.ts';
import type { AnyTool } from '../tool.ts';

export const DEFAULT_CALL_HISTORY_SIZE = 200;
/** Longest text a record keeps of the arguments' JSON, the result content, and the metadata's JSON. */
export const MAX_RECORD_TEXT_CHARS = 16 * 1024;

/** Why a call did not run: the stage that refused it. */
export type RefusalKind = 'lookup' | 'policy' | 'validation' | 'approval' | 'quota';

export interface CallRefusal {
  kind: RefusalKind;
  /** `metadata.reason` of the result (`unknown`, `permission`, `approval_denied`, `quota_exceeded`, …), or `invalid_arguments`. */
  reason: string;
}

export interface CallApproval {
  /** The approval request's id (as in `GET /v1/approvals`). */
  id: string;
  requested_at: string;
  decided_at?: string;
  decision?: ApprovalDecision;
  /** `user`: a person decided; else why it ended without one (`timeout`, `cancelled`, `no_approver`, `shutdown`). */
  reason?: ApprovalEndReason;
  /** Where a person's decision came from: `http` (the console or `POST /v1/approvals/{id}`), `prompt` (the caller's own prompt: MCP elicitation). */
  via?: ApprovalChannel;
}

/** One line of `GET /v1/calls`. */
export interface CallSummary {
  call_id: string;
  tool: string;
  transport: CallTransport | 'unknown';
  /** ISO 8601. */
  started_at: string;
  finished_at: string;
  /** From the request reaching the host to its answer (approval and quota waits included). */
  duration_ms: number;
  is_error: boolean;
  refusal?: CallRefusal;
}

/** `GET /v1/calls/{call_id}`. */
export interface CallRecord extends CallSummary {
  /** Redacted (see the module comment); null when they were not a JSON object or were too large (`arguments_preview` then). */
  arguments: Record<string, unknown> | null;
  /** The start of the arguments' JSON when it was longer than the cap. */
  arguments_preview?: string;
  result: { content: string; is_error: boolean; metadata?: Record<string, unknown> };
  /** The content was cut to the cap; `content_chars` says how long it was. */
  content_truncated?: true;
  content_chars?: number;
  /** The metadata was too large to keep whole: its JSON's start. */
  metadata_preview?: string;
  approval?: CallApproval;
}

export interface CallHistoryBody {
  /** Newest first. */
  calls: CallSummary[];
  /** How many calls the daemon keeps. */
  capacity: number;
}

/** A call in progress, as the recorder holds it until the result arrives. */
export interface OpenCall {
  readonly callId: string;
  finish(result: ToolResult): void;
}

const LOOKUP_REASONS = new Set(['unknown', 'loading', 'load_failed']);
const POLICY_REASONS = new Set(['excluded', 'permission']);
const APPROVAL_REASONS = new Set(['approval_denied', 'approval_timeout', 'approval_unavailable']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cut(text: string): string {
  return text.length > MAX_RECORD_TEXT_CHARS ? `${text.slice(0, MAX_RECORD_TEXT_CHARS)}…` : text;
}

/** The refusal a result carries in `metadata.reason`, if it is one. */
export function refusalOf(result: ToolResult): CallRefusal | undefined {
  const reason = result.metadata?.['reason'];
  if (!result.is_error || typeof reason !== 'string') return undefined;
  if (LOOKUP_REASONS.has(reason)) return { kind: 'lookup', reason };
  if (POLICY_REASONS.has(reason)) return { kind: 'policy', reason };
  if (APPROVAL_REASONS.has(reason)) return { kind: 'approval', reason };
  if (reason === 'quota_exceeded' || reason === 'state_unavailable') return { kind: 'quota', reason };
  return undefined;
}

export class CallHistory {
  readonly capacity: number;
  private readonly records: CallRecord[] = [];
  /** Approvals of calls still running, by call id (only calls this history opened). */
  private readonly approvals = new Map<string, CallApproval | undefined>();
  private readonly unsubscribe: () => void;
  private readonly host: Host;

  constructor(host: Host, options: { capacity?: number } = {}) {
    this.host = host;
    this.capacity = Math.max(1, Math.floor(options.capacity ?? DEFAULT_CALL_HISTORY_SIZE));
    this.unsubscribe = host.onEvent((event) => this.observe(event));
  }

  /** Starts recording a call; the caller passes `callId` on to the host so its events match. */
  open(name: string, args: unknown, options: { callId?: string | undefined; transport?: CallTransport | undefined; lookedUp?: AnyTool | undefined } = {}): OpenCall {
    const callId = options.callId ?? randomUUID();
    const startedAt = new Date();
    const started = performance.now();
    const before = options.lookedUp ?? this.toolNamed(name);
    this.approvals.set(callId, undefined);
    return {
      callId,
      finish: (result) => {
        const approval = this.approvals.get(callId);
        this.approvals.delete(callId);
        const after = this.toolNamed(name);
        const record = this.buildRecord({ name, args, callId, transport: options.transport, startedAt, durationMs: performance.now() - started, result, tools: [before, after], approval });
        this.records.push(record);
        if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
      },
    };
  }

  /** Summaries, newest first. */
  list(): CallHistoryBody {
    return { calls: this.records.map(summaryOf).reverse(), capacity: this.capacity };
  }

  get(callId: string): CallRecord | undefined {
    return this.records.find((record) => record.call_id === callId);
  }

  close(): void {
    this.unsubscribe();
    this.approvals.clear();
  }

  /** The registry's tool of that name, hidden or not (its secret parameters are what matters here); not the visibility lookup. */
  private toolNamed(name: string): AnyTool | undefined {
    return this.host.registry.get(name);
  }

  private observe(event: HostEvent): void {
    if (event.type !== 'approval_requested' && event.type !== 'approval_decided') return;
    if (!this.approvals.has(event.call_id)) return;
    if (event.type === 'approval_requested') {
      this.approvals.set(event.call_id, { id: event.id, requested_at: event.created_at });
      return;
    }
    const requested = this.approvals.get(event.call_id);
    this.approvals.set(event.call_id, {
      id: event.id,
      requested_at: requested?.requested_at ?? new Date().toISOString(),
      decided_at: new Date().toISOString(),
      decision: event.decision,
      reason: event.reason,
      ...(event.via !== undefined ? { via: event.via } : {}),
    });
  }

  private buildRecord(call: {
    name: string;
    args: unknown;
    callId: string;
    transport: CallTransport | undefined;
    startedAt: Date;
    durationMs: number;
    result: ToolResult;
    tools: (AnyTool | undefined)[];
    approval: CallApproval | undefined;
  }): CallRecord {
    const { result } = call;
    const tools = call.tools.filter((tool): tool is AnyTool => tool !== undefined);
    const refusal = refusalOf(result) ?? this.validationRefusal(result, tools[tools.length - 1], call.args);
    const record: CallRecord = {
      call_id: call.callId,
      tool: call.name,
      transport: call.transport ?? 'unknown',
      started_at: call.startedAt.toISOString(),
      finished_at: new Date(call.startedAt.getTime() + call.durationMs).toISOString(),
      duration_ms: Math.round(call.durationMs * 1000) / 1000,
      is_error: result.is_error,
      ...(refusal !== undefined ? { refusal } : {}),
      ...this.argumentsOf(call.name, call.args, tools),
      ...resultOf(redactSecrets(result, literalSecrets(call.name, call.args, tools))),
      ...(call.approval !== undefined ? { approval: call.approval } : {}),
    };
    return record;
  }

  /** An error result without a reason, whose arguments the tool's schema refuses: a validation refusal. */
  private validationRefusal(result: ToolResult, tool: AnyTool | undefined, args: unknown): CallRefusal | undefined {
    if (!result.is_error || tool === undefined || typeof result.metadata?.['reason'] === 'string') return undefined;
    return validateArguments(tool, args).ok ? undefined : { kind: 'validation', reason: 'invalid_arguments' };
  }

  /** The arguments, secret parameters of every tool the name stood for during the call redacted, capped. */
  private argumentsOf(name: string, args: unknown, tools: readonly AnyTool[]): Pick<CallRecord, 'arguments' | 'arguments_preview'> {
    const parsed = parseRawArguments(name, args);
    if (!parsed.ok) return { arguments: null };
    const secretParams = [...new Set(tools.flatMap((tool) => tool.secretParams))];
    const shown = redactArguments(parsed.value, secretParams);
    const text = JSON.stringify(shown);
    if (text.length <= MAX_RECORD_TEXT_CHARS) return { arguments: shown };
    return { arguments: null, arguments_preview: cut(text) };
  }
}

/** Shortest literal secret-parameter value replaced in a result (shorter ones would blank out common text). */
const MIN_LITERAL_SECRET_CHARS = 4;

/**
 * Literal values a caller put in secret parameters (not `<secret_ref:NAME>` placeholders), keyed by
 * parameter: a tool that echoes its input would otherwise put them back in the kept result.
 */
function literalSecrets(name: string, args: unknown, tools: readonly AnyTool[]): Map<string, string> {
  const found = new Map<string, string>();
  const parsed = parseRawArguments(name, args);
  if (!parsed.ok) return found;
  const collect = (param: string, value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length >= MIN_LITERAL_SECRET_CHARS && findSecretRefs(value).length === 0) found.set(found.has(param) ? `${param}#${found.size}` : param, value);
    } else if (Array.isArray(value)) {
      for (const item of value) collect(param, item);
    } else if (isRecord(value)) {
      for (const item of Object.values(value)) collect(param, item);
    }
  };
  for (const param of new Set(tools.flatMap((tool) => tool.secretParams))) collect(param, parsed.value[param]);
  return found;
}

function resultOf(result: ToolResult): Pick<CallRecord, 'result' | 'content_truncated' | 'content_chars' | 'metadata_preview'> {
  const content = result.content.length > MAX_RECORD_TEXT_CHARS ? { content: cut(result.content), content_truncated: true as const, content_chars: result.content.length } : { content: result.content };
  let metadata: Record<string, unknown> | undefined = result.metadata;
  let preview: string | undefined;
  if (metadata !== undefined) {
    const text = JSON.stringify(metadata);
    if (text.length > MAX_RECORD_TEXT_CHARS) {
      preview = cut(text);
      metadata = undefined;
    }
  }
  return {
    result: { content: content.content, is_error: result.is_error, ...(metadata !== undefined && isRecord(metadata) ? { metadata } : {}) },
    ...('content_truncated' in content ? { content_truncated: content.content_truncated, content_chars: content.content_chars } : {}),
    ...(preview !== undefined ? { metadata_preview: preview } : {}),
  };
}

function summaryOf(record: CallRecord): CallSummary {
  const { call_id, tool, transport, started_at, finished_at, duration_ms, is_error, refusal } = record;
  return { call_id, tool, transport, started_at, finished_at, duration_ms, is_error, ...(refusal !== undefined ? { refusal } : {}) };
}
