/**
 * The tool call's spans, on the host's call path (src/host/call-runner.ts): `execute_tool {name}`
 * (GenAI semantic conventions: `gen_ai.operation.name` = `execute_tool`, `gen_ai.tool.name`,
 * `gen_ai.tool.call.id`, plus toolhost's transport, tool source and digest, principal, is_error),
 * its `admit` child, and under that `approval wait` / `quota wait` only when the call did wait.
 * Pure functions over the TraceSpan contract: no OpenTelemetry import, and never called when tracing
 * is off. A span never carries arguments or result content (they may hold secrets).
 */
import type { CallToolOptions } from '../host-types.ts';
import type { ToolResult } from '../result.ts';
import type { AnyTool } from '../tool.ts';
import {
  ERROR_TYPE,
  EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_TYPE,
  SPAN_ADMIT,
  TOOLHOST_ADMIT_OUTCOME,
  TOOLHOST_IS_ERROR,
  TOOLHOST_PRINCIPAL_CLIENT_ID,
  TOOLHOST_PRINCIPAL_SUBJECT,
  TOOLHOST_TOOL_DIGEST,
  TOOLHOST_TOOL_SOURCE,
  TOOLHOST_TRANSPORT,
} from './attributes.ts';
import type { SpanAttributes, TraceSpan } from './span.ts';

/** `error.type` of a failed result: its `metadata.reason` code when it has one, else `tool_error`. */
export function resultErrorType(result: ToolResult): string {
  const reason = result.metadata?.['reason'];
  return typeof reason === 'string' && reason !== '' ? reason.slice(0, 64) : 'tool_error';
}

export function startToolCallSpan(parent: TraceSpan, tool: AnyTool, name: string, callId: string, options: CallToolOptions): TraceSpan {
  const digest = tool.details?.['sha256'];
  const attributes: SpanAttributes = {
    [GEN_AI_OPERATION_NAME]: EXECUTE_TOOL,
    [GEN_AI_TOOL_NAME]: name,
    [GEN_AI_TOOL_CALL_ID]: callId,
    // The tool runs here, on the agent's side of the connection (the convention's `extension`).
    [GEN_AI_TOOL_TYPE]: 'extension',
    [TOOLHOST_TOOL_SOURCE]: tool.source,
    [TOOLHOST_TRANSPORT]: options.transport,
    [TOOLHOST_TOOL_DIGEST]: typeof digest === 'string' ? `sha256:${digest}` : undefined,
    [TOOLHOST_PRINCIPAL_SUBJECT]: options.principal?.subject,
    [TOOLHOST_PRINCIPAL_CLIENT_ID]: options.principal?.clientId,
  };
  return parent.child(`${EXECUTE_TOOL} ${name}`, { attributes });
}

/**
 * Ends the call's span with its outcome: `toolhost.is_error`, and status ERROR with `error.type` when
 * it failed; no result means the call threw (a host bug the edge answers as `internal_error`).
 */
export function endToolCallSpan(span: TraceSpan, result: ToolResult | undefined): void {
  const isError = result === undefined || result.is_error;
  span.setAttributes({ [TOOLHOST_IS_ERROR]: isError });
  if (isError) span.fail(result === undefined ? 'internal_error' : resultErrorType(result));
  span.end();
}

/** Ends the `admit` span: admitted, or refused with the refusal's reason as `error.type`. */
export function endAdmitSpan(span: TraceSpan, refusal: ToolResult | undefined): void {
  span.setAttributes({ [TOOLHOST_ADMIT_OUTCOME]: refusal === undefined ? 'admitted' : 'refused' });
  if (refusal !== undefined) span.setAttributes({ [ERROR_TYPE]: resultErrorType(refusal) });
  span.end();
}

export function startAdmitSpan(callSpan: TraceSpan): TraceSpan {
  return callSpan.child(SPAN_ADMIT);
}

/**
 * A wait that may or may not happen (for a person's approval, for a quota slot): `onWait` opens its
 * span when the gate says the call waits; `end` closes it, if it was opened. `then` is the edge's own
 * listener of the wait (progress), still called.
 */
export class WaitSpan {
  private span: TraceSpan | undefined;
  constructor(
    private readonly parent: TraceSpan,
    private readonly name: string,
  ) {}

  onWait(then: (() => void) | undefined): () => void {
    return () => {
      this.span ??= this.parent.child(this.name);
      then?.();
    };
  }

  end(): void {
    this.span?.end();
  }
}
