/**
 * Refusing connections by address: a name is judged by every address it resolves to, at connect
 * time (a `lookup` for net.connect and http.request), so a name that resolves elsewhere the second
 * time (DNS rebinding) does not slip past a check made earlier. Used by http hooks
 * (user-hooks/http-address-guard.ts) and the sandbox's domain proxy (tools/sandbox/domain-proxy.ts).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** A network and its prefix length: `['169.254.0.0', 16]`. */
export type Subnet = readonly [network: string, prefix: number];

export type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export interface AddressGuard {
  /** Why `address` (an IP literal, brackets allowed) is refused; undefined when it is not an IP or is allowed. */
  refused(address: string): string | undefined;
  /** A `lookup` refusing a name that resolves to a refused address, with an error of code `code`. */
  lookup(hostname: string, options: LookupOptions, callback: LookupCallback): void;
}

/**
 * A guard refusing `ipv4` and `ipv6` (an IPv4 address written as IPv6, `::ffff:127.0.0.1`, counts
 * as IPv4); `why` says why one address is refused.
 */
export function addressGuard(o: {
  ipv4: readonly Subnet[];
  ipv6: readonly Subnet[];
  why: (address: string) => string;
  code: string;
}): AddressGuard {
  let list: BlockList | undefined;
  // Made on first use: a BlockList is a native handle the CLI's startup snapshot cannot hold.
  const ranges = (): BlockList => {
    if (list) return list;
    list = new BlockList();
    for (const [net, prefix] of o.ipv4) list.addSubnet(net, prefix, 'ipv4');
    for (const [net, prefix] of o.ipv6) list.addSubnet(net, prefix, 'ipv6');
    return list;
  };
  const refused = (address: string): string | undefined => {
    const bare = address.replace(/^\[|\]$/g, '');
    const family = isIP(bare);
    if (family === 0) return undefined;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
    const hit = mapped
      ? ranges().check(mapped, 'ipv4')
      : ranges().check(bare, family === 4 ? 'ipv4' : 'ipv6');
    return hit ? o.why(bare) : undefined;
  };
  return {
    refused,
    lookup(hostname, options, callback) {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, []);
        const why = addresses.map((a) => refused(a.address)).find((w) => w !== undefined);
        if (why)
          return callback(
            Object.assign(new Error(`${hostname} resolves to ${why}`), { code: o.code }),
            [],
          );
        if (options.all) return callback(null, addresses);
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      });
    },
  };
}
