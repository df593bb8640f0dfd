/**
 * Where an `http` hook may connect (docs/hooks.md, "http handlers"): loopback and public addresses,
 * never a private, link-local (a cloud's metadata service at 169.254.169.254), shared, multicast or
 * unspecified one, as Claude Code guards its http hooks. Checked on the addresses a name resolves to,
 * at connect time (net/address-guard.ts).
 */
import { addressGuard } from '../net/address-guard.ts';

const guard = addressGuard({
  ipv4: [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['224.0.0.0', 3],
  ],
  ipv6: [
    ['::', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ],
  why: (address) =>
    `${address} is a private, link-local or reserved address (http hooks reach loopback and public addresses only)`,
  code: 'EHOOKADDRESS',
});

/** Why an http hook may not connect to `address` (an IP literal); undefined when it may. */
export const blockedAddress = guard.refused;

/** A `lookup` for http.request that refuses names resolving to a blocked address. */
export const guardedLookup = guard.lookup;
