/** Where Claude Code keeps the user's own settings, commands, skills, agents and CLAUDE.md. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's Claude Code folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude` (as Claude Code reads it). */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR?.trim() || join(homedir(), '.claude');
}
