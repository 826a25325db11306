// Approvals waiting for a person: calls an `ask` rule holds until someone allows or denies them
// (GET /v1/approvals, POST /v1/approvals/{id}). Kept current by the approval_requested and
// approval_decided events; shown only while some call is waiting.
//
// Both routes answer only to the admin token (a person's secret, never a tool's). Signed in with
// anything else, the console shows no arguments and no buttons: it says how many calls wait and
// where the admin token is (the daemon's refusal names it), with a button to sign in with it.

import { ApiError, whereabouts } from './api.js';
import { h, prettyJson, replaceChildren } from './dom.js';

const DECISIONS = [
  { decision: 'allow', label: 'Allow' },
  { decision: 'deny', label: 'Deny' },
  { decision: 'always', label: 'Always allow' },
];

export class ApprovalsView {
  /**
   * @param {import('./api.js').ApiClient} api
   * @param {{ section: HTMLElement, list: HTMLElement, locked: HTMLElement, lockedText: HTMLElement }} parts
   *   locked: what non-admins see instead of the list (its sign-in button is wired by the page)
   */
  constructor(api, parts) {
    this.api = api;
    this.parts = parts;
    /** @type {Map<string, any>} pending requests by id */
    this.pending = new Map();
    /** True once GET /v1/approvals answered: the stored token is the admin token. */
    this.admin = false;
    /** The daemon's refusal (it says where the admin token is), when not admin. */
    this.refusal = '';
  }

  /** Loads the pending list; without the admin token, only learns why not (a daemon without approval routes answers 404). */
  async load() {
    try {
      const body = await this.api.json('/v1/approvals', {}, { prompt: false });
      this.pending = new Map(body.approvals.map((request) => [request.id, request]));
      this.admin = true;
      this.refusal = '';
    } catch (error) {
      this.admin = false;
      if (error instanceof ApiError && error.code === 'admin_token_required') this.refusal = error.message;
      else if (!(error instanceof ApiError && error.status === 404)) console.warn('approvals: ', error);
      // Calls that wait are still announced by events (without their arguments); start from none.
      this.pending = new Map();
    }
    this.render();
    return this.admin;
  }

  /** Takes approval_requested and approval_decided events; ignores the rest. */
  handle(event) {
    if (event.type === 'approval_requested') {
      const { type: _type, ...request } = event;
      this.pending.set(request.id, request);
      this.render();
    } else if (event.type === 'approval_decided') {
      this.pending.delete(event.id);
      this.render();
    }
  }

  render() {
    const requests = [...this.pending.values()].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
    this.parts.section.hidden = requests.length === 0;
    this.parts.locked.hidden = this.admin;
    if (!this.admin) {
      replaceChildren(this.parts.list);
      const waiting = requests.length === 1 ? 'A call waits' : `${requests.length} calls wait`;
      this.parts.lockedText.textContent = `${waiting} for a person's decision. Deciding needs the admin token. ${whereabouts(this.refusal)}`.trim();
      return;
    }
    replaceChildren(
      this.parts.list,
      requests.map((request) => this.item(request)),
    );
  }

  item(request) {
    const status = h('p', { class: 'field-error', role: 'alert', hidden: true });
    const buttons = DECISIONS.map(({ decision, label }) =>
      h(
        'button',
        {
          type: 'button',
          class: decision === 'allow' ? 'small primary' : 'small',
          'aria-label': `${label} ${request.tool} call ${request.id}`,
          onclick: async (event) => {
            const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
            button.disabled = true;
            try {
              await this.api.post(`/v1/approvals/${encodeURIComponent(request.id)}`, { decision }, { prompt: false });
              this.pending.delete(request.id);
              this.render();
            } catch (error) {
              status.hidden = false;
              status.textContent = error instanceof Error ? error.message : String(error);
              button.disabled = false;
            }
          },
        },
        label,
      ),
    );
    return h(
      'li',
      { class: 'approval', 'data-approval': request.id, 'data-tool': request.tool },
      h('div', {}, h('span', { class: 'mono' }, request.tool), ' ', h('span', { class: 'muted' }, `expires ${new Date(request.expires_at).toLocaleTimeString([], { hour12: false })}`)),
      h('pre', {}, prettyJson(request.arguments)),
      h('div', { class: 'actions' }, buttons),
      status,
    );
  }
}
