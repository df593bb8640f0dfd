/** Where Claude Code keeps the user's own settings, commands, skills, agents and CLAUDE.md, and the administrator's. */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The user's Claude Code folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude` (as Claude Code reads it). */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR?.trim() || join(homedir(), '.claude');
}

/**
 * Claude Code's managed settings, set by an administrator for everyone on the machine (its hooks
 * always run, its permission rules always hold); `$WORKBENCH_CLAUDE_MANAGED_SETTINGS` names another file.
 */
export function managedSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.WORKBENCH_CLAUDE_MANAGED_SETTINGS?.trim();
  if (set) return set;
  if (process.platform === 'darwin')
    return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/** The administrator's CLAUDE.md (Claude Code's managed policy memory), beside the managed settings. */
export const managedMemoryPath = (env: NodeJS.ProcessEnv = process.env): string =>
  join(dirname(managedSettingsPath(env)), 'CLAUDE.md');
