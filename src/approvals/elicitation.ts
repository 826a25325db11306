/**
 * The MCP edge's approver: asks the connected client with `elicitation/create` (a one-field form,
 * `decision`: allow | deny | always) when the client declared the elicitation capability (form mode).
 * A client that did not is answered "unavailable" with the reason, so the call waits for the HTTP
 * queue when a daemon serves one and is otherwise refused saying why.
 *
 * The form is sent as related to the tools/call request it gates, so over Streamable HTTP it travels
 * on that request's response stream, which the client is reading anyway.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson } from './rules.ts';
import { APPROVAL_DECISIONS, type ApprovalDecision, type Approver } from './types.ts';

/** Longest argument text shown in the elicitation message. */
const MAX_SHOWN_ARGUMENTS = 2_000;
/** The host's timeout refuses the call; the MCP request outlives it slightly so the host's reason wins. */
const ELICITATION_TIMEOUT_MARGIN_MS = 1_000;

/** The one-field form a client shows: a choice of decision. */
export function approvalFormSchema(): ElicitRequestFormParams['requestedSchema'] {
  return {
    type: 'object',
    properties: {
      decision: {
        type: 'string',
        title: 'Decision',
        description: 'allow: run this call once; deny: refuse it; always: run it and every identical call until the tool host stops.',
        enum: [...APPROVAL_DECISIONS],
      },
    },
    required: ['decision'],
  };
}

function isDecision(value: unknown): value is ApprovalDecision {
  return typeof value === 'string' && (APPROVAL_DECISIONS as readonly string[]).includes(value);
}

/** True when the client declared form elicitation (an empty `elicitation: {}` means form, per the spec). */
export function clientSupportsElicitation(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

export function elicitationApprover(server: Server, relatedRequestId?: RequestId): Approver {
  return async (request, signal) => {
    if (!clientSupportsElicitation(server)) {
      return { unavailable: 'the MCP client did not declare the elicitation capability, so it cannot ask the user' };
    }
    const args = canonicalJson(request.arguments);
    const shown = args.length > MAX_SHOWN_ARGUMENTS ? `${args.slice(0, MAX_SHOWN_ARGUMENTS)}…` : args;
    const remainingMs = Math.max(1, Date.parse(request.expires_at) - Date.now());
    const result = await server.elicitInput(
      {
        mode: 'form',
        message: `Allow a call to the tool "${request.tool}"?\nArguments: ${shown}\n(Unanswered, it is refused at ${request.expires_at}.)`,
        requestedSchema: approvalFormSchema(),
      },
      { signal, timeout: remainingMs + ELICITATION_TIMEOUT_MARGIN_MS, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) },
    );
    // Declining or dismissing the form is a refusal: only an explicit allow runs the call.
    if (result.action !== 'accept') return 'deny';
    const decision = result.content?.['decision'];
    return isDecision(decision) ? decision : 'deny';
  };
}
