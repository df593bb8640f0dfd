/**
 * Claude Code's domain patterns (`WebFetch(domain:…)` rules, `sandbox.network.allowedDomains`): a
 * name, or `*.name` for the name and every name under it; names compare without case and a final dot.
 */

const normal = (host: string) =>
  host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');

/** Whether `host` is one of `patterns`: a name, or `*.name` for it and every name under it. */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const h = normal(host);
  return patterns.some((raw) => {
    const p = raw.toLowerCase();
    if (!p.startsWith('*.')) return h === p;
    return h === p.slice(2) || h.endsWith(p.slice(1));
  });
}

/** Whether one of `patterns` names `host` itself, not by `*.`. */
export function hostNamedExactly(host: string, patterns: readonly string[]): boolean {
  const h = normal(host);
  return patterns.some((p) => !p.startsWith('*.') && normal(p) === h);
}
