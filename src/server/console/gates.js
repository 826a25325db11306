// What stands between a call and its tool, read-only: the approval rules as configured (first match
// wins; GET /v1/approval-rules, admin token) and each quota's limits and numbers now (GET /v1/quotas).
// The quotas are read again after calls finish, at most once per second while the panel is open.

import { ApiError } from './api.js';
import { formatDuration, h, replaceChildren } from './dom.js';

const ACTIONS = { allow: 'runs without asking', ask: 'waits for a person', deny: 'is refused' };

function ruleCondition(rule) {
  const parts = Object.entries(rule.match ?? {}).map(([key, glob]) => `${key} matches ${Array.isArray(glob) ? glob.map((item) => `"${item}"`).join(' or ') : `"${glob}"`}`);
  if (rule.argv_prefix) parts.push(`the command starts with ${rule.argv_prefix.join(' ')}`);
  return parts.length === 0 ? 'every call' : parts.join(', ');
}

function quotaLimits(limits) {
  const parts = [];
  if (limits.per_minute !== undefined) parts.push(`${limits.per_minute} per minute`);
  if (limits.concurrency !== undefined) parts.push(`${limits.concurrency} at once (${limits.queue ?? 16} may wait${limits.queue_timeout_ms !== undefined ? ` up to ${formatDuration(limits.queue_timeout_ms)}` : ''})`);
  return parts.join(', ');
}

function refusedText(refused) {
  const entries = Object.entries(refused ?? {});
  return entries.length === 0 ? '0' : entries.map(([reason, count]) => `${count} (${reason})`).join(', ');
}

export class GatesView {
  /**
   * @param {import('./api.js').ApiClient} api
   * @param {{ panel: HTMLDetailsElement, rules: HTMLElement, quotas: HTMLElement }} parts
   */
  constructor(api, parts) {
    this.api = api;
    this.parts = parts;
    this.refreshing = false;
    this.stale = false;
    parts.panel.addEventListener('toggle', () => {
      if (parts.panel.open) void this.load();
    });
  }

  async load() {
    await Promise.all([this.loadRules(), this.loadQuotas()]);
  }

  async loadRules() {
    try {
      const body = await this.api.json('/v1/approval-rules', {}, { prompt: false });
      replaceChildren(
        this.parts.rules,
        body.rules.length === 0
          ? h('p', { class: 'muted' }, 'No approval rules: every call the permission mode allows runs without asking.')
          : [
              h(
                'table',
                { class: 'facts', 'data-testid': 'approval-rules' },
                h('thead', {}, h('tr', {}, ['#', 'tool', 'when', 'then'].map((heading) => h('th', { scope: 'col' }, heading)))),
                h('tbody', {}, body.rules.map((rule) => h('tr', { 'data-action': rule.action }, h('td', {}, String(rule.position)), h('td', { class: 'mono' }, rule.tool), h('td', {}, ruleCondition(rule)), h('td', {}, `${rule.action}: ${ACTIONS[rule.action] ?? ''}`)))),
              ),
              h('p', { class: 'hint' }, `The first rule that matches decides. A call that waits for a person is refused after ${formatDuration(body.timeout_ms)}.`),
            ],
      );
    } catch (error) {
      const locked = error instanceof ApiError && error.code === 'admin_token_required';
      replaceChildren(this.parts.rules, h('p', { class: 'muted', 'data-testid': 'rules-locked' }, locked ? 'Reading the approval rules needs the admin token.' : `Could not read the approval rules: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  async loadQuotas() {
    try {
      const body = await this.api.json('/v1/quotas');
      replaceChildren(
        this.parts.quotas,
        body.quotas.length === 0
          ? h('p', { class: 'muted' }, 'No quotas.')
          : h(
              'table',
              { class: 'facts', 'data-testid': 'quotas' },
              h('thead', {}, h('tr', {}, ['tools', 'limit', 'running', 'waiting', 'this minute', 'refused'].map((heading) => h('th', { scope: 'col' }, heading)))),
              h(
                'tbody',
                {},
                body.quotas.map((quota) =>
                  h('tr', { 'data-quota': quota.key }, h('td', { class: 'mono' }, quota.key), h('td', {}, quotaLimits(quota.limits)), h('td', { class: 'num' }, String(quota.in_use)), h('td', { class: 'num' }, String(quota.waiting)), h('td', { class: 'num' }, String(quota.window_calls)), h('td', {}, refusedText(quota.refused))),
                ),
              ),
            ),
      );
    } catch (error) {
      replaceChildren(this.parts.quotas, h('p', { class: 'field-error' }, `Could not read the quotas: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  /** A call finished: read the quotas again (coalesced, at most once a second) while the panel is open. */
  callFinished() {
    if (!this.parts.panel.open) return;
    if (this.refreshing) {
      this.stale = true;
      return;
    }
    this.refreshing = true;
    void this.loadQuotas().finally(() =>
      setTimeout(() => {
        this.refreshing = false;
        if (this.stale) {
          this.stale = false;
          this.callFinished();
        }
      }, 1000),
    );
  }
}
