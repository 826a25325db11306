// The protocol log: every request this page made to the daemon (method, URL, status, time to the
// answer's headers, bytes sent and received), newest first, in a collapsible panel. It shows what the
// page did, not what other clients did (the call history is for that), and never a header or a body.

import { clockTime, formatBytes, formatDuration, h, replaceChildren } from './dom.js';

export class ProtocolLogView {
  /**
   * @param {import('./api.js').ApiClient} api
   * @param {{ panel: HTMLDetailsElement, body: HTMLElement, count: HTMLElement, clear: HTMLElement }} parts
   *   body: a <tbody>; count: the summary's counter
   */
  constructor(api, parts) {
    this.api = api;
    this.parts = parts;
    /** @type {Map<number, HTMLTableRowElement>} rows by log entry id */
    this.rows = new Map();
    for (const entry of api.log) this.show(entry);
    api.onLog((entry) => this.show(entry));
    parts.clear.addEventListener('click', () => {
      api.log.splice(0);
      this.rows.clear();
      replaceChildren(parts.body);
      this.updateCount();
    });
  }

  show(entry) {
    const row = this.rows.get(entry.id);
    const status = typeof entry.status === 'number' ? String(entry.status) : entry.status;
    const tone = typeof entry.status === 'number' ? (entry.status < 400 ? 'ok' : 'error') : entry.status === 'failed' ? 'error' : 'open';
    const cells = [
      h('td', { class: 'muted' }, clockTime(entry.at)),
      h('td', { class: 'mono' }, entry.method),
      h('td', { class: 'mono url' }, entry.url),
      h('td', {}, h('span', { class: `badge status-${tone}` }, status)),
      h('td', { class: 'num' }, formatDuration(entry.ms)),
      h('td', { class: 'num' }, entry.sent > 0 ? formatBytes(entry.sent) : '–'),
      h('td', { class: 'num' }, entry.received === undefined ? '…' : formatBytes(entry.received)),
    ];
    if (row !== undefined) {
      row.dataset.status = status;
      replaceChildren(row, cells);
      return;
    }
    const created = /** @type {HTMLTableRowElement} */ (h('tr', { 'data-method': entry.method, 'data-url': entry.url, 'data-status': status }, cells));
    this.rows.set(entry.id, created);
    this.parts.body.prepend(created);
    const kept = new Set(this.api.log.map((item) => item.id));
    for (const [id, old] of this.rows) {
      if (kept.has(id)) continue;
      old.remove();
      this.rows.delete(id);
    }
    this.updateCount();
  }

  updateCount() {
    this.parts.count.textContent = `(${this.rows.size})`;
  }
}
