/**
 * Endpoints no tool reaches whatever its network policy allows: the daemon's own HTTP listener. The
 * daemon's API is inside its trust boundary (it calls tools, decides approvals), so a wasm tool
 * granted `localhost:<port>` must still not reach the port `toolhost serve` listens on.
 *
 * `startServer` reserves its bound address and port here (main thread, process-wide) and releases
 * them on close. Each call's network options carry a snapshot (`reservedEndpoints`, plain data) to
 * its worker, where the HTTP exchange (after name resolution, on the address it will connect to)
 * and wasi:sockets `connect` refuse a reserved address:port. A listener bound to a loopback address
 * reserves every loopback address on its port (127.0.0.0/8, ::1 and their IPv4-mapped forms all
 * reach it); one bound to 0.0.0.0 or :: also reserves every local interface address on its port.
 */
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { specialAddressClass } from './address-class.ts';
import { normalizeHost } from './allow-list.ts';

/** One reserved listener: its port, the addresses that reach it, and what it is (for denial reasons). */
export interface ReservedEndpoint {
  port: number;
  /** Normalized IP addresses that reach it (beyond loopback when `anyLoopback`). */
  addresses: string[];
  /** Every loopback address on `port` reaches it. */
  anyLoopback: boolean;
  /** What listens there, e.g. `the toolhost daemon's API (127.0.0.1:7411)`. */
  label: string;
}

const reserved = new Set<ReservedEndpoint>();

/** The IPv4 address of an IPv4-mapped IPv6 address, else the address itself, normalized. */
function canonical(address: string): string {
  const normalized = normalizeHost(isIP(address) === 6 ? `[${address}]` : address) ?? address;
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(normalized);
  if (!mapped) return normalized;
  if (mapped[1] !== undefined) return mapped[1];
  const high = parseInt(mapped[2]!, 16);
  const low = parseInt(mapped[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function localAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => canonical(entry.address)));
}

/**
 * Reserves the listener bound to `address:port` until the returned function is called. `address`
 * is the bound address (`server.address().address`).
 */
export function reserveListener(address: string, port: number, what = "the toolhost daemon's API"): () => void {
  const bound = canonical(address);
  const unspecified = specialAddressClass(bound) === 'unspecified';
  const loopback = specialAddressClass(bound) === 'loopback';
  const shown = isIP(bound) === 6 ? `[${bound}]:${port}` : `${bound}:${port}`;
  const endpoint: ReservedEndpoint = {
    port,
    addresses: unspecified ? [...new Set(localAddresses())] : [bound],
    anyLoopback: unspecified || loopback,
    label: `${what} (${shown})`,
  };
  reserved.add(endpoint);
  return () => {
    reserved.delete(endpoint);
  };
}

/** A snapshot of the reserved endpoints, as plain data for a call's network options. */
export function reservedEndpoints(): ReservedEndpoint[] {
  return [...reserved].map((endpoint) => ({ ...endpoint, addresses: [...endpoint.addresses] }));
}

/** The reserved endpoint `address:port` reaches, if any. */
export function reservedEndpointAt(endpoints: readonly ReservedEndpoint[], address: string, port: number): ReservedEndpoint | undefined {
  if (endpoints.length === 0) return undefined;
  const target = canonical(address);
  const loopback = specialAddressClass(target) === 'loopback';
  return endpoints.find((endpoint) => endpoint.port === port && ((endpoint.anyLoopback && loopback) || endpoint.addresses.includes(target)));
}

/** The denial reason for a tool's request to a reserved endpoint. */
export function reservedReason(endpoint: ReservedEndpoint): string {
  return `${endpoint.label} is never reachable from a tool, whatever network.allow says`;
}
