// Which callback addresses the hub may connect to. Refuses loopback, private, link-local, CGNAT,
// metadata, multicast and reserved ranges (IPv4, IPv6, IPv4-mapped and NAT64 forms), so a
// subscriber cannot make the hub reach into its own network (SSRF).
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT, RFC 6598
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2001::', 32], // Teredo
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 is here)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

// Ranges that embed or translate to an arbitrary IPv4 address. A BlockList also matches IPv4
// addresses against IPv6 rules of the mapped range, so these live in their own list, checked for
// IPv6 addresses only.
const blockedV6Only = new BlockList();
for (const [network, prefix] of [
  ['::', 96], // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291), and :: and ::1
  ['::ffff:0:0', 96], // IPv4-mapped, in any form embeddedIpv4 does not read
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 2765)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to any IPv4, private ones too
] as const) {
  blockedV6Only.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True when the hub must not connect to this IP address. Anything unparseable is refused. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6') || blockedV6Only.check(address, 'ipv6');
}

/** Hostname without IPv6 brackets, as `net` and `dns` expect it. */
export function bareHostname(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
