/**
 * The environment of every child process the workbench starts, one small policy per audience:
 * commands the agent runs (`safeChildEnv`, an allowlist of the parent's variables) and user hooks
 * (`buildHookEnv`, the user's environment as at home minus secrets). A secret-looking name from the
 * parent never passes to either.
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

/**
 * The network's proxy, which a command needs where only a proxy leads out (a sandboxed command with
 * allowed domains gets the workbench's instead). A proxy URL with credentials in it stays out: the
 * model would read them; the sandbox's domain proxy uses them without showing them.
 */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY'].flatMap((n) => [
  n,
  n.toLowerCase(),
]);

/** Whether a proxy URL carries a user name or password (`http://me:pw@proxy:3128`, `me@proxy`). */
const hasCredentials = (url: string) => /^([a-z][a-z0-9+.-]*:\/\/)?[^/]*@/i.test(url);

/** Variables that keep interactive programs from waiting on a terminal that is not there. */
const NON_INTERACTIVE: Record<string, string> = {
  CI: '1',
  GIT_EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
};

/**
 * The environment of a command the agent runs: the allowlist, the proxy variables without
 * credentials, non-interactive defaults, then `extra`.
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
  for (const name of PROXY_VARIABLES) {
    const value = source[name];
    if (value !== undefined && !hasCredentials(value)) env[name] = value;
  }
  Object.assign(env, NON_INTERACTIVE, extra);
  for (const name of Object.keys(env)) if (isSecretName(name)) delete env[name];
  return env;
}

/**
 * Not inherited by a hook: the workbench's own tracing export (Claude Code strips it too) and the
 * parent's working folder (a hook runs in the workspace).
 */
const HOOK_DROPPED = /^(OTEL_.*|PWD|OLDPWD)$/;

/** Whether a parent variable passes to a hook. Contract: a secret-looking name never does. */
export function isAllowedEnvName(name: string): boolean {
  return !isSecretName(name) && !HOOK_DROPPED.test(name);
}

export interface HookEnvOptions {
  /** Sets CLAUDE_PROJECT_DIR too (Claude Code settings hooks). */
  claude?: boolean;
  base?: NodeJS.ProcessEnv;
  /** Variables the user configured for hooks (the settings file's `env` block, CLAUDE_ENV_FILE). */
  extra?: Readonly<Record<string, string>>;
}

/**
 * The environment of a hook process: the user's environment (default process.env) as at home, minus
 * secrets, plus the project variables and `extra`.
 * Contract: no secret-looking name from `base` and no variable holding the configured API key
 * (OPENAI_API_KEY's value), whatever its name or source.
 */
export function buildHookEnv(workspace: string, opts: HookEnvOptions = {}): NodeJS.ProcessEnv {
  const base = opts.base ?? process.env;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && isAllowedEnvName(name)) env[name] = value;
  }
  Object.assign(env, opts.extra);
  env.WORKBENCH_PROJECT_DIR = workspace;
  if (opts.claude) env.CLAUDE_PROJECT_DIR = workspace;
  const key = base.OPENAI_API_KEY;
  if (key) for (const [name, value] of Object.entries(env)) if (value === key) delete env[name];
  return env;
}
