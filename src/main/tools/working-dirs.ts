/**
 * Working directories added to a run's workspace (docs/security.md#working-directories): Claude
 * Code's `permissions.additionalDirectories` and `workbench run --add-dir`. The agent's file tools
 * read and write them as the workspace, the approval policy treats them as the workspace, and
 * sandboxed commands may write them. Each must be an existing folder, and never one that opens what
 * the workbench always keeps from the agent: the whole disk, your home folder or a folder holding
 * it, the workbench's own folder, a credential folder, /proc or /sys.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { isInside } from './path-guard.ts';
import { realTargetSync } from './real-target.ts';
import { HOME_SECRETS } from './sandbox/policy.ts';

/** A folder as the user named it. */
export interface WorkingDirRequest {
  /** As written: absolute, `~/…`, or relative to `base`. */
  text: string;
  /** What relative paths resolve against. */
  base: string;
  /** Where it was named, for messages: a settings file's key, or `--add-dir`. */
  from: string;
}

export interface WorkingDirs {
  /** Real paths, without repeats and without folders the workspace already holds. */
  dirs: string[];
  /** Each folder left out, with the reason. */
  refused: string[];
}

/** The absolute path a request names: `~` and `~/` from the home folder, relative from its base. */
export function workingDirPath(text: string, base: string, home: string): string {
  if (text === '~') return home;
  if (text.startsWith('~/')) return join(home, text.slice(2));
  return isAbsolute(text) ? resolve(text) : resolve(base, text);
}

/** Why the folder at real path `real` cannot be a working directory, or undefined. */
function refusal(real: string, o: { home: string; workbenchHome: string }): string | undefined {
  if (real === '/') return 'it would open the whole file system';
  if (isInside(o.home, real))
    return 'it holds your home folder, whose credentials stay out of reach; name the folders inside it instead';
  if (isInside(real, '/proc') || isInside(real, '/sys'))
    return 'it is a view of the system, not files';
  const workbenchHome = realTargetSync(o.workbenchHome, '/');
  if (isInside(real, workbenchHome) || isInside(workbenchHome, real))
    return `the workbench's own folder (${o.workbenchHome}: keys, settings, threads) stays out of reach`;
  for (const rel of HOME_SECRETS) {
    const secret = realTargetSync(join(o.home, rel), '/');
    if (isInside(real, secret) || isInside(secret, real))
      return `${secret} holds credentials, which stay out of reach`;
  }
  return undefined;
}

/**
 * The working directories the requests name, checked. Contract: never throws; a folder that does not
 * exist, is not a folder, or opens what stays out of reach is left out with its reason.
 */
export function checkWorkingDirs(
  requests: readonly WorkingDirRequest[],
  o: { workspace: string; home: string; workbenchHome: string },
): WorkingDirs {
  const out: WorkingDirs = { dirs: [], refused: [] };
  const workspace = realTargetSync(o.workspace, '/');
  const home = realTargetSync(o.home, '/');
  for (const r of requests) {
    const path = workingDirPath(r.text, r.base, o.home);
    const left = (why: string) => out.refused.push(`${r.from}: ${r.text} is left out: ${why}`);
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch {
      left(`no folder ${path}`);
      continue;
    }
    if (!statSync(real, { throwIfNoEntry: false })?.isDirectory()) {
      left(`${path} is not a folder`);
      continue;
    }
    const why = refusal(real, { home, workbenchHome: o.workbenchHome });
    if (why) left(why);
    else if (!isInside(real, workspace) && !out.dirs.includes(real)) out.dirs.push(real);
  }
  return out;
}
