/**
 * Claude Code's `CLAUDE_ENV_FILE` (docs/hooks.md): a file per run that SessionStart and FileChanged hooks append
 * `export NAME=value` lines to; the variables reach the run's later commands. The lines are read, never
 * run by a shell, so a value is taken literally (one pair of surrounding quotes is removed).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const envFilePath = (home: string, runId: string) =>
  join(home, 'env-files', `${runId.replace(/[^A-Za-z0-9_.-]/g, '_')}.sh`);
const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/** Creates the run's empty env file; returns its path, or undefined when it cannot be created. */
export function createEnvFile(home: string, runId: string): string | undefined {
  const path = envFilePath(home, runId);
  try {
    mkdirSync(join(home, 'env-files'), { recursive: true, mode: 0o700 });
    writeFileSync(path, '', { mode: 0o600 });
    return path;
  } catch {
    return undefined;
  }
}

/** The variables the file's `export` lines set, later lines winning. Contract: never throws. */
export function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const raw = m[2].trim();
    const quoted = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw.at(-1) === raw[0];
    env[m[1]] = quoted ? raw.slice(1, -1) : raw;
  }
  return env;
}

/** Removes the run's env file. Contract: never throws. */
export function removeEnvFile(home: string, runId: string): void {
  rmSync(envFilePath(home, runId), { force: true });
}
