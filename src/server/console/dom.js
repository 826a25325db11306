// Small DOM helpers. Everything the console shows that came from a tool (names, descriptions,
// results) goes through textContent, never innerHTML, so a tool cannot inject markup.

/**
 * Creates an element: `h('p', { class: 'hint', id: 'x' }, 'text', child)`. Attribute values of
 * `false`, `null` or `undefined` are left out; `on*` functions become listeners.
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === 'value' && 'value' in element) /** @type {HTMLInputElement} */ (element).value = String(value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends nodes, strings and (nested) arrays of them, skipping empty ones. */
export function append(parent, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent, ...children) {
  parent.replaceChildren();
  return append(parent, ...children);
}

/** Pretty JSON for <pre> blocks. */
export function prettyJson(value) {
  return JSON.stringify(value, null, 2);
}

/** A local clock time, e.g. 14:03:07. */
export function clockTime(date = new Date()) {
  return date.toLocaleTimeString([], { hour12: false });
}

/** `1 234 ms`, `1.25 s`. */
export function formatDuration(ms) {
  if (!Number.isFinite(ms)) return '?';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** `1.0 MiB`, `512 KiB`, `12 B`. */
export function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}
