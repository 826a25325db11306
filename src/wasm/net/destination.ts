/**
 * Resolve once, check, connect to what was checked: the addresses a request may connect to. IP
 * literals are taken as they are, pinned names use the policy's `resolve` addresses, other names go
 * through the system resolver once. Addresses in special ranges (address-class.ts) are dropped unless
 * the allow entry named the host or IP exactly. The caller connects to the returned address (a
 * custom `lookup`), so DNS cannot answer differently between the check and the connect.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { specialAddressClass } from './address-class.ts';
import type { HttpErrorCode } from './protocol.ts';

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

export type DestinationResult = { ok: true; target: CheckedAddress } | { ok: false; error: HttpErrorCode; message: string; address?: string };

export interface DestinationQuery {
  host: string;
  exact: boolean;
  pinned: readonly string[] | undefined;
  timeoutMs: number;
}

function familyOf(address: string): 4 | 6 {
  return isIP(address) === 6 ? 6 : 4;
}

async function resolveAll(host: string, timeoutMs: number): Promise<CheckedAddress[] | HttpErrorCode> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HttpErrorCode>((resolve) => {
    timer = setTimeout(() => resolve({ tag: 'DNS-timeout' }), timeoutMs);
  });
  try {
    const answer = lookup(host, { all: true, verbatim: true }).then(
      (found) => found.map(({ address }) => ({ address, family: familyOf(address) })),
      (error: NodeJS.ErrnoException): HttpErrorCode =>
        error.code === 'ENOTFOUND' || error.code === 'ENODATA' ? { tag: 'destination-not-found' } : { tag: 'DNS-error', val: { rcode: error.code, infoCode: undefined } },
    );
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The one address to connect to, or the wasi:http error the guest gets. */
export async function checkDestination(query: DestinationQuery): Promise<DestinationResult> {
  let candidates: CheckedAddress[];
  if (isIP(query.host) !== 0) candidates = [{ address: query.host, family: familyOf(query.host) }];
  else if (query.pinned !== undefined) candidates = query.pinned.map((address) => ({ address, family: familyOf(address) }));
  else {
    const resolved = await resolveAll(query.host, query.timeoutMs);
    if (!Array.isArray(resolved)) return { ok: false, error: resolved, message: `cannot resolve ${query.host} (${resolved.tag})` };
    candidates = resolved;
  }
  if (candidates.length === 0) return { ok: false, error: { tag: 'destination-not-found' }, message: `${query.host} has no address` };
  const target = query.exact ? candidates[0] : candidates.find(({ address }) => specialAddressClass(address) === undefined);
  if (target === undefined) {
    const first = candidates[0]!;
    return {
      ok: false,
      error: { tag: 'destination-IP-prohibited' },
      message: `${query.host} resolves to ${first.address} (${specialAddressClass(first.address)}), which only an allow entry naming that host or IP exactly may reach`,
      address: first.address,
    };
  }
  return { ok: true, target };
}
