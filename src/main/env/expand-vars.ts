/**
 * `${VAR}` and `${VAR:-default}` in MCP server and HTTP tool configuration, as Claude Code expands
 * them in `.mcp.json` (docs/tools.md#mcp-servers): in `command`, `args`, `env`, `url` and `headers`.
 */

export interface Expanded<T> {
  value: T;
  /** Variables that were unset and had no default (each replaced by an empty string). */
  missing: string[];
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands one string. Contract: text outside `${…}` is kept as is; never throws. */
export function expandVars(text: string, env: NodeJS.ProcessEnv = process.env): Expanded<string> {
  const missing: string[] = [];
  const value = text.replace(VAR, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return '';
  });
  return { value, missing };
}

/** Expands every string of a string list or record (keys are kept). */
export function expandAll<T extends string[] | Record<string, string>>(
  values: T,
  env: NodeJS.ProcessEnv = process.env,
): Expanded<T> {
  const missing: string[] = [];
  const one = (s: string) => {
    const e = expandVars(s, env);
    missing.push(...e.missing);
    return e.value;
  };
  const value = Array.isArray(values)
    ? values.map(one)
    : Object.fromEntries(Object.entries(values).map(([k, v]) => [k, one(v)]));
  return { value: value as T, missing };
}
