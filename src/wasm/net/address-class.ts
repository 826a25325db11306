/**
 * The SSRF guard's address classes: destinations a tool reaches only when its allow entry names
 * them exactly. Loopback, private (RFC 1918, CGNAT, IPv6 unique-local), link-local (which holds the
 * cloud metadata endpoint 169.254.169.254; fd00:ec2::254 is unique-local), unspecified, multicast,
 * broadcast, and the documentation/benchmark/reserved ranges. IPv4-mapped and NAT64 IPv6 forms are
 * judged by the IPv4 address they carry. Built on node's BlockList.
 */
import { BlockList, isIP } from 'node:net';

const SPECIAL_V4: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const SPECIAL_V6: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

function listOf(ranges: ReadonlyArray<readonly [string, number, string]>, type: 'ipv4' | 'ipv6'): Array<[BlockList, string]> {
  return ranges.map(([network, prefix, label]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return [list, label];
  });
}

/** Instance metadata endpoints (AWS/GCP/Azure/OpenStack, AWS IPv6, Alibaba). */
const CLOUD_METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

const V4 = listOf(SPECIAL_V4, 'ipv4');
const V6 = listOf(SPECIAL_V6, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`), if any. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(lower);
  if (!match) return undefined;
  if (match[1] !== undefined) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Why an address is off limits without an exact allow entry ('loopback', 'private', 'link-local',
 * ...), or undefined for an ordinary public address. A string that is no IP address is 'invalid'.
 */
export function specialAddressClass(address: string): string | undefined {
  if (CLOUD_METADATA.has(address.toLowerCase())) return 'cloud-metadata';
  const family = isIP(address);
  if (family === 4) {
    if (address === '255.255.255.255') return 'broadcast';
    return V4.find(([list]) => list.check(address, 'ipv4'))?.[1];
  }
  if (family === 6) {
    const v4 = embeddedV4(address);
    if (v4 !== undefined) return specialAddressClass(v4);
    return V6.find(([list]) => list.check(address, 'ipv6'))?.[1];
  }
  return 'invalid';
}
