/**
 * `network.allow` entries: what a policy may write and which requests an entry admits.
 *
 * Forms: `host`, `host:port`, `*.suffix`, `*.suffix:port`, IP literals (`10.0.0.5`, `[fd00::1]`,
 * `[fd00::1]:8443`), each optionally prefixed by `http://` or `https://` (any other scheme, a path,
 * user info or a bare `*` is refused). A port-less entry admits its scheme's default port, or 80 and 443
 * when it names no scheme, so `api.example.com` never opens, say, port 22. `*.example.com` matches
 * `a.example.com` and `a.b.example.com`, not `example.com` itself.
 *
 * An entry "names" a destination exactly when it is not a wildcard: only such an entry may reach a
 * loopback, private, link-local or metadata address (see address-class.ts).
 */
import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';

export type NetScheme = 'http' | 'https';

export interface AllowEntry {
  /** The entry as written, for messages. */
  readonly text: string;
  readonly scheme: NetScheme | undefined;
  /** Lower-case ASCII host name, or a normalized IP literal without brackets; for wildcards the suffix after `*.`. */
  readonly host: string;
  readonly wildcard: boolean;
  readonly ip: boolean;
  /** Undefined: the scheme's default port (or 80/443 without a scheme). */
  readonly port: number | undefined;
}

/** What a request or a socket connect is about to reach. `scheme` is undefined for raw sockets. */
export interface NetDestination {
  readonly scheme: NetScheme | undefined;
  readonly host: string;
  readonly port: number;
}

const DEFAULT_PORTS: Record<NetScheme, number> = { http: 80, https: 443 };
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/** Lower-case ASCII form of a host name or IP literal (brackets dropped), or undefined when it is neither. */
export function normalizeHost(raw: string): string | undefined {
  let host = raw.trim();
  if (host.startsWith('[') && host.endsWith(']')) {
    const inner = host.slice(1, -1);
    return isIP(inner) === 6 ? new URL(`http://[${inner}]/`).hostname.slice(1, -1) : undefined;
  }
  if (isIP(host) === 4) return host;
  if (isIP(host) === 6) return new URL(`http://[${host}]/`).hostname.slice(1, -1);
  host = host.replace(/\.$/, '');
  const ascii = domainToASCII(host);
  if (ascii === '' || ascii.length > 253) return undefined;
  return ascii.split('.').every((label) => LABEL.test(label)) ? ascii : undefined;
}

/** Parses one entry; returns a sentence saying what is wrong instead when it is not one. */
export function parseAllowEntry(text: string): AllowEntry | string {
  let rest = text.trim();
  let scheme: NetScheme | undefined;
  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
  if (schemeMatch) {
    const name = schemeMatch[1]!.toLowerCase();
    if (name !== 'http' && name !== 'https') return `scheme "${name}" is not supported (http or https)`;
    scheme = name;
    rest = rest.slice(schemeMatch[0].length).replace(/\/$/, '');
  }
  if (/[/?#@\s]/.test(rest)) return 'an entry is a host with an optional scheme and port, without path, query or user';
  let port: number | undefined;
  let hostPart = rest;
  const portMatch = /^(.*[^:]|\[.*\]):(\d{1,5})$/.exec(rest);
  if (portMatch) {
    hostPart = portMatch[1]!;
    port = Number(portMatch[2]);
    if (port < 1 || port > 65535) return `port ${portMatch[2]} is out of range`;
  }
  const wildcard = hostPart.startsWith('*.');
  if (hostPart.includes('*') && !wildcard) return 'a wildcard is written "*.suffix" (a bare "*" is not allowed)';
  const host = normalizeHost(wildcard ? hostPart.slice(2) : hostPart);
  if (host === undefined) return `"${hostPart}" is not a host name or IP address`;
  const ip = isIP(host) !== 0;
  if (wildcard && (ip || !host.includes('.'))) return 'a wildcard needs a domain suffix with a dot, e.g. "*.example.com"';
  return { text, scheme, host, wildcard, ip, port };
}

/** Parses every entry; throws a TypeError naming the first bad one. */
export function parseAllowList(entries: readonly string[]): AllowEntry[] {
  return entries.map((text) => {
    const entry = parseAllowEntry(text);
    if (typeof entry === 'string') throw new TypeError(`network.allow entry "${text}": ${entry}`);
    return entry;
  });
}

function hostMatches(entry: AllowEntry, host: string): boolean {
  if (!entry.wildcard) return entry.host === host;
  return host.endsWith(`.${entry.host}`);
}

function portMatches(entry: AllowEntry, destination: NetDestination): boolean {
  if (entry.port !== undefined) return entry.port === destination.port;
  if (entry.scheme !== undefined) return DEFAULT_PORTS[entry.scheme] === destination.port;
  return destination.port === 80 || destination.port === 443;
}

/**
 * The entry admitting a destination, preferring one that names it exactly (which lifts the private
 * address guard), or undefined when none does. `destination.host` must be normalized.
 */
export function matchAllowList(entries: readonly AllowEntry[], destination: NetDestination): AllowEntry | undefined {
  let found: AllowEntry | undefined;
  for (const entry of entries) {
    if (entry.scheme !== undefined && destination.scheme !== undefined && entry.scheme !== destination.scheme) continue;
    if (!hostMatches(entry, destination.host) || !portMatches(entry, destination)) continue;
    if (!entry.wildcard) return entry;
    found ??= entry;
  }
  return found;
}

/**
 * The entry admitting some port of `host` (for name lookups, which know no port yet), preferring
 * one that names it exactly, or undefined. `host` must be normalized.
 */
export function matchAllowedHost(entries: readonly AllowEntry[], host: string): AllowEntry | undefined {
  let found: AllowEntry | undefined;
  for (const entry of entries) {
    if (!hostMatches(entry, host)) continue;
    if (!entry.wildcard) return entry;
    found ??= entry;
  }
  return found;
}

/** The default port of a scheme. */
export function defaultPort(scheme: NetScheme): number {
  return DEFAULT_PORTS[scheme];
}
