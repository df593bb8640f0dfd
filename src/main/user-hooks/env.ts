/**
 * The environment a hook process sees: an allowlist of the parent's variables plus the project dir.
 * API keys, tokens and OTLP headers never reach a hook (security-tests T4.16, T7.1).
 */

const ALLOWED = new Set(['PATH', 'HOME', 'USER', 'LANG', 'TERM', 'TMPDIR', 'SHELL']);
const SECRET = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** Whether a variable name may be passed to a hook. Contract: a secret-looking name is never allowed. */
export function isAllowedEnvName(name: string): boolean {
  if (SECRET.test(name)) return false;
  return ALLOWED.has(name) || name.startsWith('LC_');
}

/**
 * Builds a hook's environment from `base` (default process.env).
 * Contract: contains only allowlisted names, WORKBENCH_PROJECT_DIR, and CLAUDE_PROJECT_DIR when `claude`.
 */
export function buildHookEnv(workspace: string, opts: { claude?: boolean; base?: NodeJS.ProcessEnv } = {}): NodeJS.ProcessEnv {
  const base = opts.base ?? process.env;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && isAllowedEnvName(name)) env[name] = value;
  }
  env.WORKBENCH_PROJECT_DIR = workspace;
  if (opts.claude) env.CLAUDE_PROJECT_DIR = workspace;
  return env;
}
