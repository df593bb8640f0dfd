/**
 * The environment of every child process the workbench starts, one small policy per audience:
 * commands the agent runs (`safeChildEnv`) and user hooks (`buildHookEnv`). Both start from an
 * allowlist of the parent's variables, and a secret-looking name never passes, whatever its source.
 */

/** Names that look like credentials: API keys, tokens, passwords, auth headers. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/** Whether a variable name looks like a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** What an agent command may see of the parent's environment. */
const COMMAND_ALLOWED = (
  'PATH HOME USER LOGNAME SHELL LANG LANGUAGE LC_ALL LC_CTYPE LC_MESSAGES ' +
  'TERM TMPDIR TMP TEMP TZ COLORTERM NO_COLOR SYSTEMROOT COMSPEC PATHEXT'
).split(' ');

/** Variables that keep interactive programs from waiting on a terminal that is not there. */
const NON_INTERACTIVE: Record<string, string> = {
  CI: '1',
  GIT_EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
};

/**
 * The environment of a command the agent runs: the allowlist, non-interactive defaults, then `extra`.
 * Contract: no secret-looking variable (`isSecretName`) is ever included, not even from `extra`.
 */
export function safeChildEnv(
  extra: Record<string, string> = {},
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of COMMAND_ALLOWED) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, NON_INTERACTIVE, extra);
  for (const name of Object.keys(env)) if (isSecretName(name)) delete env[name];
  return env;
}

/** What a hook may see of the parent's environment, besides every `LC_*` locale variable. */
const HOOK_ALLOWED = new Set(['PATH', 'HOME', 'USER', 'LANG', 'TERM', 'TMPDIR', 'SHELL']);

/** Whether a variable name may be passed to a hook. Contract: a secret-looking name never is. */
export function isAllowedEnvName(name: string): boolean {
  if (isSecretName(name)) return false;
  return HOOK_ALLOWED.has(name) || name.startsWith('LC_');
}

/**
 * The environment of a hook process, from `base` (default process.env).
 * Contract: only allowlisted names, WORKBENCH_PROJECT_DIR, and CLAUDE_PROJECT_DIR when `claude`.
 */
export function buildHookEnv(
  workspace: string,
  opts: { claude?: boolean; base?: NodeJS.ProcessEnv } = {},
): NodeJS.ProcessEnv {
  const base = opts.base ?? process.env;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && isAllowedEnvName(name)) env[name] = value;
  }
  env.WORKBENCH_PROJECT_DIR = workspace;
  if (opts.claude) env.CLAUDE_PROJECT_DIR = workspace;
  return env;
}
