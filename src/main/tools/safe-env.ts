/** The environment given to child processes the agent starts: an allowlist, never secrets. */

const ALLOWED = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES',
  'TERM', 'TMPDIR', 'TMP', 'TEMP', 'TZ', 'COLORTERM', 'NO_COLOR', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT',
];
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/** Variables that keep interactive programs from waiting on a terminal that is not there. */
const NON_INTERACTIVE: Record<string, string> = {
  CI: '1',
  GIT_EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
};

/**
 * Builds a child environment from the allowlist plus `extra`.
 * Contract: no variable whose name matches /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH/i is ever included,
 * not even from `extra`.
 */
export function safeChildEnv(extra: Record<string, string> = {}, source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ALLOWED) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, NON_INTERACTIVE, extra);
  for (const name of Object.keys(env)) if (SECRET_NAME.test(name)) delete env[name];
  return env;
}
