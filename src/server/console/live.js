// The live view: calls as they finish (tool, duration, status), tool-set changes from hot reload
// (added, updated, removed, load_failed with its reason, collisions), network refusals, and a
// latency chart per tool. Fed by the /v1/events stream, and for calls made before the page opened by
// the daemon's call history (GET /v1/calls, admin token); keeps the most recent entries only. A call's
// row opens the call (`onOpen`).

import { latencyChart, quantile } from './chart.js';
import { clockTime, formatDuration, h, replaceChildren } from './dom.js';

const MAX_ROWS = 100;
const MAX_SAMPLES = 60;

export class LiveView {
  /**
   * @param {{ calls: HTMLElement, changes: HTMLElement, charts: HTMLElement, status: HTMLElement }} parts
   *   calls: a <tbody>; changes: a <ul>; charts: a container; status: the connection indicator
   */
  constructor(parts, onOpen = () => undefined) {
    this.parts = parts;
    this.onOpen = onOpen;
    /** @type {Map<string, { duration_ms: number, is_error: boolean }[]>} */
    this.samples = new Map();
    /** Call ids shown, so a call the history and the stream both report is listed once. */
    this.shown = new Set();
  }

  /** Adds the daemon's recent calls (GET /v1/calls summaries, newest first) that are not shown yet. */
  addHistory(summaries) {
    for (const summary of [...summaries].reverse()) {
      this.addCall({ ...summary, refused: summary.refusal !== undefined }, new Date(summary.finished_at), 'history');
    }
  }

  setStatus(status) {
    const text = { connecting: 'connecting…', open: 'live', closed: 'disconnected, retrying' }[status] ?? status;
    this.parts.status.textContent = text;
    this.parts.status.dataset.state = status;
  }

  /** Routes one host event to the right list. */
  handle(event) {
    switch (event.type) {
      case 'call_finished':
        this.addCall(event);
        break;
      case 'added':
      case 'updated':
      case 'removed':
        this.addChange(event.type, `${event.name} (${event.source})`, event.file);
        break;
      case 'load_failed':
        this.addChange('load_failed', event.file, event.error, 'error');
        break;
      case 'collision':
        this.addChange('collision', event.name, event.reason, 'warning');
        break;
      case 'network_denied':
        this.addChange('network_denied', `${event.tool} → ${event.host}:${event.port}`, `${event.kind}: ${event.reason}`, 'warning');
        break;
      default:
        this.addChange(String(event.type), '', JSON.stringify(event));
    }
  }

  /**
   * One row, placed by its time (newest first).
   * @param {{ tool: string, call_id: string, duration_ms: number, is_error: boolean, refused?: boolean, replica?: string }} event
   * @param {Date} [at] when it finished (now for a live event)
   * @param {'live' | 'history'} [source]
   */
  addCall(event, at = new Date(), source = 'live') {
    const id = String(event.call_id);
    if (this.shown.has(id)) return;
    this.shown.add(id);
    const status = event.refused ? 'refused' : event.is_error ? 'error' : 'ok';
    const open = () => this.onOpen(id, event.tool);
    const row = h(
      'tr',
      { class: `call call-${status}`, 'data-tool': event.tool, 'data-call': id, 'data-source': source, 'data-at': String(at.getTime()), 'data-replica': event.replica, onclick: open },
      h('td', {}, clockTime(at)),
      // in a fleet, which replica ran it (its details are in that replica's call history)
      h('td', { class: 'mono' }, event.tool, event.replica ? h('span', { class: 'muted', title: 'replica' }, ` @ ${event.replica}`) : null),
      h('td', { class: 'num' }, formatDuration(event.duration_ms)),
      h('td', {}, h('span', { class: `badge status-${status === 'ok' ? 'ok' : 'error'}` }, status)),
      h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'small link mono',
            title: id,
            'aria-label': `Open the call to ${event.tool} ${id.slice(0, 8)}`,
            onclick: (click) => {
              click.stopPropagation();
              open();
            },
          },
          id.slice(0, 8),
        ),
      ),
    );
    const later = [...this.parts.calls.rows].find((other) => Number(other.dataset.at) <= at.getTime());
    if (later === undefined) this.parts.calls.append(row);
    else later.before(row);
    while (this.parts.calls.rows.length > MAX_ROWS) {
      const last = this.parts.calls.rows[this.parts.calls.rows.length - 1];
      this.shown.delete(last?.dataset.call ?? '');
      this.parts.calls.deleteRow(-1);
    }
    const samples = this.samples.get(event.tool) ?? [];
    samples.push({ duration_ms: event.duration_ms, is_error: event.is_error });
    if (samples.length > MAX_SAMPLES) samples.splice(0, samples.length - MAX_SAMPLES);
    this.samples.set(event.tool, samples);
    this.renderCharts();
  }

  addChange(type, subject, detail, tone = 'info') {
    const item = h(
      'li',
      { class: `change change-${type} tone-${tone}`, 'data-type': type },
      h('span', { class: 'muted' }, clockTime()),
      ' ',
      h('span', { class: `badge kind-${type}` }, type),
      ' ',
      h('span', { class: 'mono' }, subject),
      detail ? h('div', { class: 'change-detail' }, detail) : null,
    );
    this.parts.changes.prepend(item);
    while (this.parts.changes.children.length > MAX_ROWS) this.parts.changes.lastElementChild?.remove();
  }

  renderCharts() {
    const tools = [...this.samples.keys()].sort();
    replaceChildren(
      this.parts.charts,
      tools.map((tool) => {
        const samples = this.samples.get(tool) ?? [];
        const durations = samples.map((sample) => sample.duration_ms);
        const errors = samples.filter((sample) => sample.is_error).length;
        return h(
          'figure',
          { class: 'chart', 'data-tool': tool },
          latencyChart(tool, samples),
          h(
            'figcaption',
            {},
            h('span', { class: 'mono' }, tool),
            ` ${samples.length} call${samples.length === 1 ? '' : 's'}, p50 ${formatDuration(quantile(durations, 0.5))}, p95 ${formatDuration(quantile(durations, 0.95))}`,
            errors > 0 ? `, ${errors} failed` : '',
          ),
        );
      }),
    );
  }
}
