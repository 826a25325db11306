// The daemon's scheduled runs (config `schedules`, GET /v1/schedules): each schedule's expression,
// tool, next run, last result and counts. The panel shows only when the daemon has schedules; it is
// read again after calls finish (a scheduled run is a call) and after the next run is due, at most
// once per second while open.

import { formatDuration, h, replaceChildren } from './dom.js';

/** `ok 14:03:02 (12 ms)`, `skipped 14:03:04 (overlap)`. */
function lastText(run) {
  if (!run) return 'not run yet';
  const when = new Date(run.tick).toLocaleTimeString([], { hour12: false });
  const detail = run.status === 'skipped' || run.status === 'refused' ? run.reason ?? '' : formatDuration(run.duration_ms);
  return `${run.status} ${when}${detail ? ` (${detail})` : ''}`;
}

function nextText(iso) {
  return iso ? new Date(iso).toLocaleString([], { hour12: false }) : 'never';
}

export class SchedulesView {
  /**
   * @param {import('./api.js').ApiClient} api
   * @param {{ panel: HTMLDetailsElement, body: HTMLElement }} parts
   */
  constructor(api, parts) {
    this.api = api;
    this.parts = parts;
    this.refreshing = false;
    this.stale = false;
    this.timer = undefined;
    parts.panel.addEventListener('toggle', () => {
      if (parts.panel.open) void this.load();
    });
  }

  async load() {
    let body;
    try {
      body = await this.api.json('/v1/schedules');
    } catch (error) {
      replaceChildren(this.parts.body, h('p', { class: 'field-error' }, `Could not read the schedules: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    this.parts.panel.hidden = body.schedules.length === 0;
    replaceChildren(
      this.parts.body,
      h(
        'table',
        { class: 'facts', 'data-testid': 'schedules' },
        h('thead', {}, h('tr', {}, ['name', 'cron', 'tool', 'next run', 'last run', 'ok / error / refused / skipped'].map((heading) => h('th', { scope: 'col' }, heading)))),
        h(
          'tbody',
          {},
          body.schedules.map((schedule) =>
            h(
              'tr',
              { 'data-schedule': schedule.name, 'data-last-status': schedule.last_run?.status ?? 'none' },
              h('td', { class: 'mono' }, schedule.name),
              h('td', { class: 'mono', title: `time zone ${schedule.timezone}, overlap ${schedule.overlap}${schedule.jitter_ms ? `, jitter up to ${schedule.jitter_ms} ms` : ''}` }, schedule.cron),
              h('td', { class: 'mono' }, schedule.tool),
              h('td', {}, nextText(schedule.next_run)),
              h('td', { 'data-testid': 'last-run', title: schedule.last_run?.call_id ? `call ${schedule.last_run.call_id}` : '' }, lastText(schedule.last_run)),
              h('td', { class: 'num', 'data-testid': 'counts' }, `${schedule.counts.ok} / ${schedule.counts.error} / ${schedule.counts.refused} / ${schedule.counts.skipped}`),
            ),
          ),
        ),
      ),
      body.state_error ? h('p', { class: 'hint' }, `Shared state unreachable (${body.state_error}): only this replica's runs show.`) : null,
    );
    this.armNextRun(body.schedules);
  }

  /** Reads again once the earliest next run is due (a skipped tick sends no event). */
  armNextRun(schedules) {
    clearTimeout(this.timer);
    const next = Math.min(...schedules.map((schedule) => (schedule.next_run ? Date.parse(schedule.next_run) : Infinity)));
    if (!Number.isFinite(next) || !this.parts.panel.open) return;
    this.timer = setTimeout(() => this.changed(), Math.min(Math.max(next - Date.now() + 500, 1000), 2 ** 31 - 1));
  }

  /** Something changed (a call finished, a run was due): read again, coalesced, at most once a second, while open. */
  changed() {
    if (!this.parts.panel.open || this.parts.panel.hidden) return;
    if (this.refreshing) {
      this.stale = true;
      return;
    }
    this.refreshing = true;
    void this.load().finally(() =>
      setTimeout(() => {
        this.refreshing = false;
        if (this.stale) {
          this.stale = false;
          this.changed();
        }
      }, 1000),
    );
  }
}
