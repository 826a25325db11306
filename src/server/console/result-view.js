// A tool result as the console shows it: is_error, the content text, metadata, and the raw JSON.

import { formatDuration, h, prettyJson } from './dom.js';

/**
 * @param {{ content: string, is_error: boolean, metadata?: Record<string, unknown> }} result
 * @param {number} elapsedMs time the browser waited for the answer
 * @returns {HTMLElement}
 */
export function renderResult(result, elapsedMs) {
  const status = result.is_error ? 'error' : 'ok';
  return h(
    'section',
    { class: `result result-${status}`, 'aria-label': 'Result', 'data-is-error': String(result.is_error) },
    h(
      'div',
      { class: 'result-head' },
      h('span', { class: `badge status-${status}`, 'data-testid': 'result-status' }, `is_error: ${result.is_error}`),
      h('span', { class: 'muted' }, `answered in ${formatDuration(elapsedMs)}`),
    ),
    h('h4', {}, 'content'),
    h('pre', { class: 'result-content', 'data-testid': 'result-content' }, result.content === '' ? '(empty)' : result.content),
    h('h4', {}, 'metadata'),
    h('pre', { class: 'result-metadata', 'data-testid': 'result-metadata' }, result.metadata === undefined ? '(none)' : prettyJson(result.metadata)),
    h('details', { class: 'raw' }, h('summary', {}, 'Raw JSON'), h('pre', { 'data-testid': 'result-raw' }, prettyJson(result))),
  );
}

/** A failure to get any result (HTTP error, network): not a tool result, so it is labelled as such. */
export function renderRequestFailure(message) {
  return h('section', { class: 'result result-error', 'aria-label': 'Result' }, h('p', { class: 'field-error', role: 'alert' }, `The call did not run: ${message}`));
}
