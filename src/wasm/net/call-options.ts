/**
 * What one call's WASI host needs to know about the network, as plain data (it is posted to a pool
 * worker): the allow list, the budgets with defaults filled in, pinned addresses, and the headers the
 * host adds per destination with their secrets already substituted. The secret values live only
 * here, in the network thread and on the wire to the allowed host: never in guest memory, results,
 * logs or events.
 */
import { NETWORK_DEFAULTS, parseHostKey, type NetworkPolicy } from '../../policy.ts';
import { substituteSecrets, type SecretsResolver } from '../../secrets.ts';
import { reservedEndpoints, type ReservedEndpoint } from './reserved-endpoints.ts';

/** A header the host adds to requests for one destination. */
export interface InjectedHeader {
  /** Normalized host the header is for. */
  host: string;
  /** Only this port; undefined = any port the allow list admits. */
  port: number | undefined;
  /** Lower-case header name. */
  name: string;
  /** The value, secrets substituted; undefined when a secret it refers to is not configured. */
  value: string | undefined;
  /** Names of referenced secrets that are not configured (the host then refuses requests to `host`). */
  missingSecrets: string[];
  /** The value holds a secret: it is sent over HTTPS only (or plain HTTP to a loopback literal / localhost). */
  secret: boolean;
  /** The secret values inside `value`, redacted from what the guest reads back (redact-bytes.ts). */
  secretValues: string[];
}

export interface NetworkCallOptions {
  allow: string[];
  headers: InjectedHeader[];
  /** Pinned addresses by normalized host name (no DNS for these names). */
  resolve: Record<string, string[]>;
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  requestTimeoutMs: number;
  maxRequestBodyBytes: number;
  maxResponseBodyBytes: number;
  /** Listeners no request may reach whatever `allow` says (the daemon's own API): reserved-endpoints.ts. */
  reserved: ReservedEndpoint[];
}

export interface ResolvedHeaders {
  headers: InjectedHeader[];
  /** Secret name → value of every secret substituted, for redacting results (`redactSecrets`). */
  used: Map<string, string>;
}

/**
 * Substitutes `<secret_ref:NAME>` in the policy's `network.headers`. Without a resolver every
 * reference is missing (the request is then refused rather than sent with a placeholder).
 */
export function resolveNetworkHeaders(network: NetworkPolicy, secrets: SecretsResolver | undefined): ResolvedHeaders {
  const used = new Map<string, string>();
  const headers: InjectedHeader[] = [];
  const resolver: SecretsResolver = secrets ?? { resolve: () => undefined };
  for (const [key, fields] of Object.entries(network.headers ?? {})) {
    const target = parseHostKey(key);
    if (target === undefined) continue;
    for (const [name, template] of Object.entries(fields)) {
      const substitution = substituteSecrets(template, resolver);
      if (substitution.ok) {
        for (const [secret, value] of substitution.used) used.set(secret, value);
        headers.push({ host: target.host, port: target.port, name: name.toLowerCase(), value: substitution.value as string, missingSecrets: [], secret: substitution.used.size > 0, secretValues: [...substitution.used.values()] });
      } else {
        headers.push({ host: target.host, port: target.port, name: name.toLowerCase(), value: undefined, missingSecrets: substitution.missing, secret: true, secretValues: [] });
      }
    }
  }
  return { headers, used };
}

/** The call options of a policy's network grant; `headers` from `resolveNetworkHeaders` (default: no secrets). */
export function networkCallOptions(network: NetworkPolicy, headers?: readonly InjectedHeader[]): NetworkCallOptions {
  const resolve: Record<string, string[]> = {};
  for (const [key, addresses] of Object.entries(network.resolve ?? {})) {
    const target = parseHostKey(key);
    if (target !== undefined) resolve[target.host] = [...addresses];
  }
  return {
    allow: [...network.allow],
    headers: headers === undefined ? resolveNetworkHeaders(network, undefined).headers : headers.map((header) => ({ ...header, secretValues: [...header.secretValues] })),
    resolve,
    connectTimeoutMs: network.connect_timeout_ms ?? NETWORK_DEFAULTS.connect_timeout_ms,
    firstByteTimeoutMs: network.first_byte_timeout_ms ?? NETWORK_DEFAULTS.first_byte_timeout_ms,
    requestTimeoutMs: network.request_timeout_ms ?? NETWORK_DEFAULTS.request_timeout_ms,
    maxRequestBodyBytes: network.max_request_body_bytes ?? NETWORK_DEFAULTS.max_request_body_bytes,
    maxResponseBodyBytes: network.max_response_body_bytes ?? NETWORK_DEFAULTS.max_response_body_bytes,
    reserved: reservedEndpoints(),
  };
}
