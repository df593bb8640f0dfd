/** Where the workbench keeps its per-user state ($WORKBENCH_HOME). */
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The files and folders inside a workbench home. */
export interface HomePaths {
  db: string;
  settings: string;
  hooksDir: string;
  skillsDir: string;
  agentsMd: string;
  trust: string;
  /** bubblewrap's last successful probe (tools/sandbox/probe-memo.ts). */
  sandboxProbe: string;
}

/**
 * Returns `$WORKBENCH_HOME` (absolute) or `~/.workbench` (`$HOME` of `env` first, so tests stay sandboxed), creating it if missing.
 * Contract: a newly created home has mode 0700 (it holds transcripts); an existing one is left as is.
 */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.WORKBENCH_HOME?.trim();
  const home = fromEnv
    ? resolve(expandTilde(fromEnv))
    : join(env.HOME?.trim() || homedir(), '.workbench');
  // chmod too: mkdir's mode is filtered by the umask.
  if (mkdirSync(home, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(home, 0o700);
  return home;
}

/** Paths of the well-known entries of `home`; creates nothing. */
export function homePaths(home: string): HomePaths {
  return {
    db: join(home, 'workbench.db'),
    settings: join(home, 'settings.json'),
    hooksDir: join(home, 'hooks'),
    skillsDir: join(home, 'skills'),
    agentsMd: join(home, 'AGENTS.md'),
    trust: join(home, 'trust.json'),
    sandboxProbe: join(home, 'sandbox-probe.json'),
  };
}

function expandTilde(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}
