/**
 * Where an `http` hook may connect (docs/hooks.md, "http handlers"): loopback and public addresses,
 * never a private, link-local (a cloud's metadata service at 169.254.169.254), shared, multicast or
 * unspecified one, as Claude Code guards its http hooks. Checked on the addresses a name resolves to,
 * at connect time, so a name that resolves elsewhere on the second lookup does not slip past.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

let blockList: BlockList | undefined;

/** The refused ranges, made on first use: a BlockList is a native handle the CLI's startup snapshot cannot hold. */
function refusedRanges(): BlockList {
  if (blockList) return blockList;
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['224.0.0.0', 3],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of [
    ['::', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6');
  return (blockList = list);
}

/** Why an http hook may not connect to `address` (an IP literal); undefined when it may. */
export function blockedAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  const ranges = refusedRanges();
  const hit = mapped
    ? ranges.check(mapped, 'ipv4')
    : ranges.check(bare, family === 4 ? 'ipv4' : 'ipv6');
  return hit
    ? `${bare} is a private, link-local or reserved address (http hooks reach loopback and public addresses only)`
    : undefined;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for http.request that refuses names resolving to a blocked address. */
export function guardedLookup(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses
      .map((a) => blockedAddress(a.address))
      .find((why) => why !== undefined);
    if (refused)
      return callback(
        Object.assign(new Error(`${hostname} resolves to ${refused}`), { code: 'EHOOKADDRESS' }),
        [],
      );
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}
