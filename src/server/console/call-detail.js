// One call opened from the calls table: what was sent (arguments, secret parameters redacted by the
// daemon), what came back (content, stderr when the tool wrote some, metadata), why it did not run
// (the refusal: unknown tool, the host's policy, invalid arguments, an approval, a quota), how long it
// took, and for a call that waited for a person, who decided and how. Read from GET /v1/calls/{id},
// which answers only to the admin token.

import { ApiError } from './api.js';
import { clockTime, formatDuration, h, prettyJson } from './dom.js';

const REFUSAL_KINDS = {
  lookup: 'The tool was not found',
  policy: "The host's configuration does not let clients use this tool",
  validation: "The arguments do not fit the tool's schema",
  approval: 'An approval refused it',
  quota: 'A quota refused it',
};

const TRANSPORTS = { http: 'HTTP API', console: 'this console', mcp: 'MCP', dispatch: 'dispatch (POST /v1/dispatch)', schedule: 'a scheduled run (config schedules)', unknown: 'unknown' };

function time(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : `${date.toLocaleDateString()} ${clockTime(date)}`;
}

/** Who decided an approval, in words. */
export function approvalText(approval) {
  if (approval.decision === undefined) return `Asked at ${time(approval.requested_at)}; no decision was recorded.`;
  const asked = `asked at ${time(approval.requested_at)}, decided at ${time(approval.decided_at)}`;
  const decision = { allow: 'Allowed', deny: 'Denied', always: 'Always allowed' }[approval.decision] ?? approval.decision;
  switch (approval.reason) {
    case 'user':
      return `${decision} by a person ${approval.via === 'prompt' ? "at the caller's own prompt (MCP elicitation or a terminal)" : 'in the console or through the approvals API'} (${asked}).`;
    case 'timeout':
      return `Refused: nobody answered in time (${asked}).`;
    case 'no_approver':
      return `Refused: nobody could be asked (${asked}).`;
    case 'cancelled':
      return `The caller gave up while it waited (${asked}).`;
    case 'shutdown':
      return `Refused: the daemon was shutting down (${asked}).`;
    default:
      return `${decision} (${approval.reason ?? 'no reason recorded'}; ${asked}).`;
  }
}

/** The call's page, from its record. */
export function renderCallRecord(record) {
  const status = record.refusal ? 'refused' : record.is_error ? 'error' : 'ok';
  const metadata = record.result.metadata;
  const stderr = typeof metadata?.stderr === 'string' ? metadata.stderr : undefined;
  const rule = typeof metadata?.rule === 'number' ? ` (approval rule ${metadata.rule})` : '';
  const facts = [
    ['status', h('span', { class: `badge status-${status === 'ok' ? 'ok' : 'error'}`, 'data-testid': 'call-status' }, status)],
    ['duration', h('span', { 'data-testid': 'call-duration' }, formatDuration(record.duration_ms))],
    ['started', time(record.started_at)],
    ['came through', TRANSPORTS[record.transport] ?? record.transport],
    ['call id', h('code', {}, record.call_id)],
  ];
  return h(
    'article',
    { class: 'call-record', 'data-call': record.call_id },
    h('table', { class: 'facts' }, h('tbody', {}, facts.map(([name, value]) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value))))),
    record.refusal
      ? h(
          'section',
          { class: 'refusal', 'data-testid': 'call-refusal', 'data-kind': record.refusal.kind },
          h('h4', {}, 'Why it did not run'),
          h('p', {}, `${REFUSAL_KINDS[record.refusal.kind] ?? record.refusal.kind}${rule} — `, h('code', {}, record.refusal.reason)),
        )
      : null,
    record.approval ? h('section', { class: 'approval-outcome' }, h('h4', {}, 'Approval'), h('p', { 'data-testid': 'call-approval' }, approvalText(record.approval))) : null,
    h('h4', {}, 'arguments'),
    h('pre', { 'data-testid': 'call-arguments' }, record.arguments === null ? (record.arguments_preview ?? '(not a JSON object)') : prettyJson(record.arguments)),
    h('h4', {}, record.refusal ? 'answer' : 'content'),
    h('pre', { class: 'result-content', 'data-testid': 'call-content' }, record.result.content === '' ? '(empty)' : record.result.content),
    record.content_truncated ? h('p', { class: 'hint' }, `The daemon kept the first part of ${record.content_chars} characters.`) : null,
    stderr !== undefined ? [h('h4', {}, 'stderr'), h('pre', { class: 'stderr', 'data-testid': 'call-stderr' }, stderr)] : null,
    h('h4', {}, 'metadata'),
    h('pre', { 'data-testid': 'call-metadata' }, metadata === undefined ? (record.metadata_preview ?? '(none)') : prettyJson(metadata)),
  );
}

export class CallDetailView {
  /**
   * @param {import('./api.js').ApiClient} api
   * @param {{ dialog: HTMLDialogElement, title: HTMLElement, body: HTMLElement, close: HTMLElement }} parts
   * @param {() => void} signIn starts the admin sign-in
   */
  constructor(api, parts, signIn) {
    this.api = api;
    this.parts = parts;
    this.signIn = signIn;
    parts.close.addEventListener('click', () => parts.dialog.close());
  }

  /** Opens the call `callId` of `tool`. */
  async open(callId, tool) {
    const { dialog, title, body } = this.parts;
    title.textContent = `Call to ${tool}`;
    body.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    if (!dialog.open) dialog.showModal();
    try {
      const record = await this.api.json(`/v1/calls/${encodeURIComponent(callId)}`, {}, { prompt: false });
      body.replaceChildren(renderCallRecord(record));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'admin_token_required') {
        body.replaceChildren(
          h('p', { 'data-testid': 'call-locked' }, 'Opening a call shows what another program sent and got back, so it needs the admin token.'),
          h('button', { type: 'button', class: 'small primary', onclick: () => { dialog.close(); this.signIn(); } }, 'Sign in with the admin token'),
        );
      } else if (error instanceof ApiError && error.status === 404) {
        body.replaceChildren(h('p', { 'data-testid': 'call-missing' }, 'The daemon no longer has this call: it keeps the most recent ones, and not the calls a tool makes itself (run_code).'));
      } else {
        body.replaceChildren(h('p', { class: 'field-error' }, `Could not open the call: ${error instanceof Error ? error.message : String(error)}`));
      }
    }
  }
}
