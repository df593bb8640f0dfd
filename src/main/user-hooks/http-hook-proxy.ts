/**
 * The proxy an `http` hook goes through, as the user's other tools do: `HTTPS_PROXY` / `HTTP_PROXY`
 * (and `NO_PROXY`) of the user's environment, applied by Node's own proxy support. Behind a proxy
 * the address guard checks every host but the proxy's (the proxy resolves the hook's host).
 */
import { lookup as dnsLookup, type LookupOptions } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { guardedLookup } from './http-address-guard.ts';

type Variables = Readonly<Record<string, string | undefined>>;

const either = (v: Variables, name: string) => v[name.toLowerCase()] ?? v[name];

/** The agent and connection lookup for a request to `url`: a proxying agent when a proxy is set. */
export function hookConnection(
  url: URL,
  variables: Variables,
): { agent?: HttpAgent; lookup: typeof guardedLookup } {
  const proxy = either(variables, url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  let proxyHost: string;
  try {
    proxyHost = new URL(proxy ?? '').hostname;
  } catch {
    return { lookup: guardedLookup };
  }
  const proxyEnv = Object.fromEntries(
    ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'].flatMap((name) => {
      const value = either(variables, name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const agent =
    url.protocol === 'https:' ? new HttpsAgent({ proxyEnv }) : new HttpAgent({ proxyEnv });
  const lookup: typeof guardedLookup = (hostname: string, options: LookupOptions, callback) =>
    hostname === proxyHost
      ? dnsLookup(hostname, { ...options, all: true }, (err, addresses) =>
          options.all || err
            ? callback(err, addresses)
            : callback(null, addresses[0]!.address, addresses[0]!.family),
        )
      : guardedLookup(hostname, options, callback);
  return { agent, lookup };
}
