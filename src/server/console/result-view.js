// A tool result as the console shows it: is_error, the content text, its rich parts (images as <img>,
// audio as <audio>, embedded resources and workspace file links), structured content, metadata, and
// the raw JSON. Media are shown from data: URLs (the console's CSP allows data: images and media only).

import { formatDuration, h, prettyJson } from './dom.js';

/**
 * One rich part of a result (src/result.ts ResultPart).
 * @param {{ type: string, data?: string, mime_type?: string, uri?: string, name?: string, text?: string, blob?: string, size?: number }} part
 * @param {number} index
 */
function renderPart(part, index) {
  const testId = `result-part-${index}`;
  if ((part.type === 'image' || part.type === 'audio') && typeof part.data === 'string' && /^(image|audio)\/[a-z0-9.+-]+$/.test(part.mime_type ?? '')) {
    const source = `data:${part.mime_type};base64,${part.data}`;
    return part.type === 'image'
      ? h('figure', { class: 'result-part', 'data-testid': testId }, h('img', { src: source, alt: `${part.mime_type} result` }), h('figcaption', { class: 'muted' }, part.mime_type))
      : h('figure', { class: 'result-part', 'data-testid': testId }, h('audio', { src: source, controls: true }), h('figcaption', { class: 'muted' }, part.mime_type));
  }
  if (part.type === 'resource') {
    const body = part.text !== undefined ? part.text : `(binary, ${Math.floor(((part.blob ?? '').length * 3) / 4)} bytes)`;
    return h('figure', { class: 'result-part', 'data-testid': testId }, h('figcaption', { class: 'muted' }, `resource ${part.uri ?? ''} ${part.mime_type ?? ''}`), h('pre', {}, body));
  }
  if (part.type === 'resource_link') {
    return h('p', { class: 'result-part', 'data-testid': testId }, `file: ${part.uri ?? ''}${part.size !== undefined ? ` (${part.size} bytes)` : ''}`);
  }
  return h('pre', { class: 'result-part', 'data-testid': testId }, prettyJson(part));
}

/**
 * @param {{ content: string, is_error: boolean, metadata?: Record<string, unknown>, structured_content?: Record<string, unknown>, parts?: Array<Record<string, any>> }} result
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
    Array.isArray(result.parts) && result.parts.length > 0 ? [h('h4', {}, 'parts'), h('div', { class: 'result-parts' }, result.parts.map(renderPart))] : null,
    result.structured_content !== undefined ? [h('h4', {}, 'structured content'), h('pre', { 'data-testid': 'result-structured' }, prettyJson(result.structured_content))] : null,
    h('h4', {}, 'metadata'),
    h('pre', { class: 'result-metadata', 'data-testid': 'result-metadata' }, result.metadata === undefined ? '(none)' : prettyJson(result.metadata)),
    h('details', { class: 'raw' }, h('summary', {}, 'Raw JSON'), h('pre', { 'data-testid': 'result-raw' }, prettyJson(result))),
  );
}

/** A failure to get any result (HTTP error, network): not a tool result, so it is labelled as such. */
export function renderRequestFailure(message) {
  return h('section', { class: 'result result-error', 'aria-label': 'Result' }, h('p', { class: 'field-error', role: 'alert' }, `The call did not run: ${message}`));
}
