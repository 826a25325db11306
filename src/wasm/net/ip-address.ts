/**
 * wasi:sockets addresses as jco's glue passes them (`{tag: 'ipv4', val: [127, 0, 0, 1]}`,
 * `{tag: 'ipv6', val: {port, flowInfo, address: [8 × u16], scopeId}}`) and their text forms.
 */
import { normalizeHost } from './allow-list.ts';

export type IpAddress = { tag: 'ipv4'; val: number[] } | { tag: 'ipv6'; val: number[] };
export type IpSocketAddress =
  | { tag: 'ipv4'; val: { port: number; address: number[] } }
  | { tag: 'ipv6'; val: { port: number; flowInfo: number; address: number[]; scopeId: number } };

/** The normalized text of an address (IPv6 compressed, lower case). */
export function addressText(address: IpAddress): string {
  if (address.tag === 'ipv4') return address.val.join('.');
  return normalizeHost(`[${address.val.map((part) => part.toString(16)).join(':')}]`) ?? '';
}

/** An IP address text (as `isIP` accepts it) in jco's shape; IPv6 is expanded to its eight groups. */
export function ipAddressOf(text: string): IpAddress {
  if (!text.includes(':')) return { tag: 'ipv4', val: text.split('.').map(Number) };
  const url = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const [head = '', tail = ''] = url.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const parts = url.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return { tag: 'ipv6', val: parts.map((part: string) => parseInt(part, 16)) };
}

/** An address and port in jco's socket-address shape (no flow info, no scope). */
export function socketAddressOf(address: string, port: number): IpSocketAddress {
  const ip = ipAddressOf(address);
  return ip.tag === 'ipv4' ? { tag: 'ipv4', val: { port, address: ip.val } } : { tag: 'ipv6', val: { port, flowInfo: 0, address: ip.val, scopeId: 0 } };
}
