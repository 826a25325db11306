/** Origins as browsers send them in the `Origin` header, for `allowed_origins` and the Origin check. */

/**
 * The origin of `value` as a browser writes it in the `Origin` header (`scheme://host[:port]`, lower
 * case, default port dropped), or a sentence saying why it is not one. `null` and `*` are refused.
 */
export function normalizeOrigin(value: string): { origin: string } | { problem: string } {
  const text = value.trim();
  if (text === '*' || text.toLowerCase() === 'null') return { problem: `"${text}" is not allowed; list each origin, e.g. "http://localhost:3000"` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `"${text}" is not an origin; expected scheme://host[:port], e.g. "http://localhost:3000"` };
  }
  if (url.host === '' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || !['', '/'].includes(url.pathname)) {
    return { problem: `"${text}" is not an origin; expected scheme://host[:port] with no path, query or credentials` };
  }
  return { origin: `${url.protocol}//${url.host}` };
}
